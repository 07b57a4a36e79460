import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'

/**
 * One row per schedule occurrence run by `npm run blog -- schedule:run` (the
 * per-minute system cron): the primary key is the claim, so two hosts running
 * it in the same minute run each due schedule once (jobs/scheduleRun.ts).
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
    CREATE TABLE IF NOT EXISTS "schedule_runs" (
      "name" varchar NOT NULL,
      "due_at" timestamp(3) with time zone NOT NULL,
      "started_at" timestamp(3) with time zone NOT NULL DEFAULT now(),
      "finished_at" timestamp(3) with time zone,
      "summary" text,
      PRIMARY KEY ("name", "due_at")
    );
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP TABLE IF EXISTS "schedule_runs";`)
}
