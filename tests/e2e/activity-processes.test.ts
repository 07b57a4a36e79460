/**
 * Once, not once per process: two web processes (`npm start`, WORKER=off, as
 * at scale) and `npm run worker` processes on one database.
 *  - a worker killed mid-job has its job finished by another worker;
 *  - every cron occurrence of `publish-scheduled` runs exactly once, and
 *    `schedule:run` started on both web hosts for the same minute runs each
 *    due schedule once;
 *  - a change made through one web process purges the other's render cache;
 *  - a scheduled article appears on the other web process's cached listings (home,
 *    category, tag, feeds, sitemap)
 *    within a minute of its publish time, nobody saving it again;
 *  - uploads live in an S3-compatible bucket (issue 32 §1): the demo's images and
 *    a file uploaded through one web process are served by the other.
 */
import type { ChildProcess } from 'node:child_process'

import pg from 'pg'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startApp, type RunningApp } from '../helpers/app'
import { expectScheduledArticleToAppear } from '../helpers/scheduledArticle'
import { startS3Server, type S3Server } from '../helpers/s3Server'
import { runScript, scriptEnv } from '../helpers/script'
import { smtpEnv, startInbox, type Inbox } from '../helpers/smtp'
import { waitUntil } from '../helpers/waitUntil'
import { killGroup, startWorker } from '../helpers/worker'

let webA: RunningApp
let webB: RunningApp
let inbox: Inbox
let s3: S3Server
let db: pg.Client
let hold = true
/** When the two workers the later tests use were both up: cron occurrences are counted from here. */
let bothWorkersSince = new Date()
const workers: ChildProcess[] = []
const SEED_PASSWORD = 'inkwell-demo'
const BUCKET = 'inkwell-media'

function workerEnv(): NodeJS.ProcessEnv {
  return scriptEnv(webA.databaseUrl, { QUEUE_CONNECTION: 'pgboss', BASE_URL: webA.url, ...smtpEnv(inbox), ...s3.env(BUCKET) })
}

async function token(app: RunningApp, email: string): Promise<string> {
  const res = await fetch(`${app.url}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ email, password: SEED_PASSWORD }),
  })
  const body = (await res.json()) as { token?: string }
  if (!body.token) throw new Error(`login failed: ${JSON.stringify(body)}`)
  return body.token
}

async function api(app: RunningApp, path: string, init: { method?: string; json?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = { origin: app.url }
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  if (init.token) headers.authorization = `JWT ${init.token}`
  const res = await fetch(app.url + path, { method: init.method ?? (init.json ? 'POST' : 'GET'), headers, body: init.json ? JSON.stringify(init.json) : undefined })
  return { status: res.status, body: (await res.json()) as any }
}

/** An anonymous page view (cacheable), as a person's browser makes it. */
async function page(app: RunningApp, path: string) {
  const res = await fetch(app.url + path, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' } })
  return { status: res.status, cache: res.headers.get('x-cache'), html: await res.text() }
}

beforeAll(async () => {
  inbox = await startInbox({ hold: () => hold })
  s3 = await startS3Server([BUCKET])
  const env = { QUEUE_CONNECTION: 'pgboss', WORKER: 'off', ...smtpEnv(inbox), ...s3.env(BUCKET) }
  webA = await startApp(env) // migrates and seeds the demo
  webB = await startApp(env, { shareDatabase: webA })
  db = new pg.Client({ connectionString: webA.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  for (const w of workers) killGroup(w)
  await db?.end()
  await webB?.stop({ keepDatabase: true })
  await webA?.stop()
  await inbox?.stop()
  await s3?.close()
})

describe('two web processes and the workers on one database', () => {
  it('finishes the job of a killed worker on another worker', async () => {
    const first = await startWorker(workerEnv(), workers)
    const reader = await token(webA, 'reader1@inkwell.test')
    const [article] = (await api(webB, '/api/articles?limit=1&sort=-publishedAt')).body.docs
    const reply = await api(webA, '/api/replies', { json: { article: article.id, body: 'Written while a worker dies' }, token: reader })
    expect(reply.status).toBe(201)
    await waitUntil(async () => inbox.held.length === 1, { what: 'the first worker to be mid-send', timeoutMs: 120_000 })
    await startWorker(workerEnv(), workers)
    killGroup(first)
    hold = false
    await waitUntil(async () => inbox.messages.some((m) => m.text?.includes('Written while a worker dies')), { what: 'the mail from the other worker', timeoutMs: 180_000 })
    // The mail is sent inside the job; pg-boss records the completion just after the handler returns.
    const states = async () => (await db.query(`select state from pgboss.job where singleton_key = $1`, [`reply:${reply.body.doc.id}`])).rows.map((r) => r.state)
    await waitUntil(async () => (await states()).every((s) => s !== 'active' && s !== 'retry' && s !== 'created'), { what: 'the job to be recorded as finished', timeoutMs: 30_000 })
    expect(await states()).toEqual(['completed'])
    // Two workers again for what follows.
    await startWorker(workerEnv(), workers)
    bothWorkersSince = new Date()
  }, 480_000) // three worker boots on a machine shared with other test runs

  it('serves through one web process the files uploaded through the other: they are in the bucket', async () => {
    // The demo's images, uploaded by web A's seed, went to the bucket.
    const [seeded] = (await api(webB, '/api/media?limit=1&sort=id')).body.docs
    expect(await s3.keys(BUCKET)).toContain(seeded.filename)
    expect((await fetch(`${webB.url}/api/media/file/${seeded.filename}`)).status).toBe(200)

    const owner = await token(webA, 'owner@inkwell.test')
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#e76f51' } }).png().toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `through-a-${Date.now()}.png`)
    form.append('_payload', JSON.stringify({ alt: 'Uploaded through web A' }))
    const created = await fetch(`${webA.url}/api/media`, { method: 'POST', headers: { authorization: `JWT ${owner}`, origin: webA.url }, body: form })
    expect(created.status).toBe(201)
    const { doc } = (await created.json()) as { doc: { id: number; filename: string } }
    const served = await fetch(`${webB.url}/api/media/file/${doc.filename}`)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true)

    // Deleted through web B: the object goes too.
    expect((await api(webB, `/api/media/${doc.id}`, { method: 'DELETE', token: owner })).status).toBe(200)
    expect(await s3.keys(BUCKET)).not.toContain(doc.filename)
    expect((await fetch(`${webA.url}/api/media/file/${doc.filename}`)).status).toBe(404)
  })

  it('purges a page cached by one web process when the other one changes it', async () => {
    const owner = await token(webA, 'owner@inkwell.test')
    const [article] = (await api(webB, '/api/articles?limit=1&sort=-publishedAt')).body.docs
    const path = `/articles/${article.id}/${article.slug}`
    // Cached on web B (a purge from an earlier test's write may still be on its way through pg_notify: read until a copy stays).
    await waitUntil(async () => (await page(webB, path)).cache === 'HIT', { what: 'web B to serve the page from its cache', timeoutMs: 15_000, everyMs: 200 })
    const title = `Renamed through web A ${Date.now()}`
    expect((await api(webA, `/api/articles/${article.id}`, { method: 'PATCH', json: { title }, token: owner })).status).toBe(200)
    // pg_notify at commit reaches web B's listener; its next answer is a fresh render.
    const fresh = await waitUntil(async () => {
      const seen = await page(webB, path)
      return seen.html.includes(title) && seen
    }, { what: 'web B to show the new title', timeoutMs: 10_000 })
    expect(fresh.status).toBe(200)
  })

  it('shows site settings and categories changed through one web process on the other (its layout data is kept in memory)', async () => {
    const owner = await token(webA, 'owner@inkwell.test')
    expect((await page(webB, '/links')).status).toBe(200) // web B has read and kept its layout data
    const siteName = `Renamed through web A ${Date.now()}`
    expect((await api(webA, '/api/globals/site-settings', { json: { siteName }, token: owner })).status).toBe(200)
    const [category] = (await api(webB, '/api/categories?limit=1&sort=order')).body.docs
    const categoryName = `Category renamed through web A ${Date.now()}`
    expect((await api(webA, `/api/categories/${category.id}`, { method: 'PATCH', json: { name: categoryName }, token: owner })).status).toBe(200)
    // A page never cached (the 404 page) that reads nothing but the layout's data: only web B's kept copy could be stale.
    await waitUntil(async () => {
      const seen = await page(webB, `/no-such-page-${Date.now()}`)
      return seen.html.includes(siteName) && seen.html.includes(categoryName)
    }, { what: 'web B to show the new site name and category name', timeoutMs: 10_000 })
  })

  it('shows a scheduled article on the other process within a minute of its time: home, category, tag, the three feeds and the sitemap', async () => {
    const late = await expectScheduledArticleToAppear(webA.url, webB.url)
    expect(late).toBeLessThan(60_000 + 5_000)
  }, 180_000)

  it('runs every cron occurrence once across the processes, and schedule:run once across hosts', async () => {
    // publish-scheduled fires every minute: two occurrences handled with both workers up (counted from
    // when they were, so the minutes the tests above waited count too).
    const since = bothWorkersSince
    const runs = await waitUntil(async () => {
      const { rows } = await db.query(
        `select date_trunc('minute', created_on) as minute, count(*)::int as jobs, bool_and(state = 'completed') as done
           from pgboss.job where name = 'publish-scheduled' and created_on > $1 group by 1 order by 1`,
        [since],
      )
      return rows.filter((r) => r.done).length >= 2 && rows
    }, { what: 'two occurrences of publish-scheduled', timeoutMs: 240_000, everyMs: 2_000 })
    for (const run of runs) expect(run.jobs).toBe(1)

    // A per-minute system cron on both web hosts, for the same minute, at the same moment.
    const at = '2030-01-01T00:00Z'
    const [a, b] = await Promise.all([0, 1].map(() => runScript('jobs/cli.ts', ['schedule:run', '--at', at], workerEnv())))
    const counts = [a!, b!].map((r) => {
      const m = /(\d+) due, (\d+) ran, (\d+) already run elsewhere, (\d+) failed/.exec(r.stdout)
      if (!m) throw new Error(`no summary: ${r.stdout}${r.stderr}`)
      return m.slice(1).map(Number) as [number, number, number, number]
    })
    const due = counts[0]![0]
    expect(due).toBeGreaterThanOrEqual(4) // midnight: the hourly one, the two daily syncs, the every-minute one
    expect(counts[0]![1] + counts[1]![1]).toBe(due)
    expect(counts[0]![2] + counts[1]![2]).toBe(due)
    const { rows } = await db.query(`select count(*)::int as n from schedule_runs where due_at = $1`, [at])
    expect(rows[0].n).toBe(due)
  }, 480_000) // two whole minutes of cron, then two CLI boots
})
