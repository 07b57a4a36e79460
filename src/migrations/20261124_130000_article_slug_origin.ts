import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Where an article's slug came from (made from the title, translated, or set
 * by an editor) and the slugs it had before, for the translate-slug job
 * (src/plugins/slugs). Articles that exist already count as set by an editor:
 * nobody can tell any more whether a person chose their slug, and a slug a
 * person chose is never overwritten.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TYPE "public"."enum_articles_slug_origin" AS ENUM('automatic', 'translated', 'editor');
    ALTER TABLE "articles" ADD COLUMN "slug_origin" "enum_articles_slug_origin" DEFAULT 'editor';
    ALTER TABLE "articles" ALTER COLUMN "slug_origin" SET DEFAULT 'automatic';
    CREATE TABLE "articles_former_slugs" (
      "_order" integer NOT NULL,
      "_parent_id" integer NOT NULL,
      "id" varchar PRIMARY KEY NOT NULL,
      "slug" varchar NOT NULL
    );
    ALTER TABLE "articles_former_slugs" ADD CONSTRAINT "articles_former_slugs_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;
    CREATE INDEX "articles_former_slugs_order_idx" ON "articles_former_slugs" USING btree ("_order");
    CREATE INDEX "articles_former_slugs_parent_id_idx" ON "articles_former_slugs" USING btree ("_parent_id");
    CREATE INDEX "articles_former_slugs_slug_idx" ON "articles_former_slugs" USING btree ("slug");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
    DROP TABLE IF EXISTS "articles_former_slugs";
    ALTER TABLE "articles" DROP COLUMN IF EXISTS "slug_origin";
    DROP TYPE IF EXISTS "public"."enum_articles_slug_origin";
  `)
}
