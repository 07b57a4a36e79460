import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * Stores of the account forms that are not Payload collections: captcha
 * answers (src/lib/captcha.ts) and per-IP rate-limit counters
 * (src/lib/rateLimit.ts, the layout rate-limiter-flexible expects).
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS "captcha_challenges" (
      "token" varchar PRIMARY KEY NOT NULL,
      "answer" varchar NOT NULL,
      "expires_at" timestamp(3) with time zone NOT NULL
    );
    CREATE INDEX IF NOT EXISTS "captcha_challenges_expires_at_idx" ON "captcha_challenges" ("expires_at");
    CREATE TABLE IF NOT EXISTS "rate_limits" (
      "key" varchar(255) PRIMARY KEY,
      "points" integer NOT NULL DEFAULT 0,
      "expire" bigint
    );
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP TABLE IF EXISTS "captcha_challenges"; DROP TABLE IF EXISTS "rate_limits";`)
}
