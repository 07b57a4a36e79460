import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * A tag's page counts its public articles (collections/Articles/taggedLists.ts)
 * as all the tag's articles less the hidden ones among them. Hidden articles
 * are drafts (this small partial index: drafts are few next to what a site
 * has published) and scheduled ones (the status + publish time index). The
 * predicate is `<> 'published'`, not `= 'draft'`, so a status added later is
 * hidden too. Declared here only: Payload's `indexes` cannot express a
 * partial index.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE INDEX IF NOT EXISTS "articles_hidden_idx" ON "articles" ("id") WHERE "status" <> 'published';
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP INDEX IF EXISTS "articles_hidden_idx";`)
}
