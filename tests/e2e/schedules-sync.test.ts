/**
 * The default install (QUEUE_CONNECTION=sync, no system cron) runs its
 * schedules itself (jobs/minuteScheduler.ts): a scheduled article reaches
 * every cached listing within a minute of its time, nobody saving it again.
 * The pg-boss counterpart is in activity-processes.test.ts.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { expectScheduledArticleToAppear } from '../helpers/scheduledArticle'

let app: RunningApp

beforeAll(async () => {
  app = await startApp() // the README's `npm start`: sync queue, workers in-process
})
afterAll(async () => {
  await app?.stop()
  await app?.dropDatabase()
})

describe('schedules in sync mode', () => {
  it('shows a scheduled article on the home, category and tag pages, the three feeds and the sitemap within a minute of its time', async () => {
    const late = await expectScheduledArticleToAppear(app.url, app.url)
    expect(late).toBeLessThan(60_000 + 5_000)
  }, 180_000)

  it('records each minute it ran in schedule_runs, once', async () => {
    const db = new pg.Client({ connectionString: app.databaseUrl })
    await db.connect()
    try {
      const { rows } = await db.query(`select name, due_at, count(*)::int as n from schedule_runs where name = 'publish-scheduled' group by 1, 2`)
      expect(rows.length).toBeGreaterThan(0)
      for (const row of rows) expect(row.n).toBe(1)
      const { rows: finished } = await db.query(`select count(*)::int as n from schedule_runs where name = 'publish-scheduled' and finished_at is not null`)
      expect(finished[0].n).toBeGreaterThan(0)
    } finally {
      await db.end()
    }
  })
})
