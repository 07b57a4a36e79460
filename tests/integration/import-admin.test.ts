/**
 * The admin's import (issue 30): a WordPress export uploaded through
 * POST /api/import-reports/upload, over Payload's real HTTP pipeline, becomes
 * an import report queued as the `run-import` job, whose progress reaches
 * 100% and whose report is kept. Only the site owner (import.run) may upload
 * or read the reports: an author and an anonymous visitor are refused with a
 * clear message, and a file that is not an export with one naming the field.
 * The rule is the collection's: a create without a file is refused on every
 * path. A retried job (after a crash) changes nothing.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { jobDefinition, syncJobsIdle } from '../../jobs/queue'
import { query } from '../../src/lib/pool'
import { guardAdminView, isGuardedAdminView } from '../../src/server/guardedAdminViews'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD } from '../helpers/users'
import { smallWxr } from '../helpers/wxrFixture'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  t = await createTestPayload()
  cast = await createCast(t.payload)
}, 120_000)
afterAll(async () => {
  await t?.destroy()
})

async function signedIn(email?: string): Promise<Browser> {
  const browser = new Browser(t.payload, t.cacheKey)
  if (email) expect((await browser.login(email, PASSWORD)).status).toBe(200)
  return browser
}

function upload(browser: Browser, file: { name: string; text: string; type?: string } | null, options: Record<string, unknown> = {}) {
  const body = new FormData()
  if (file) body.set('file', new Blob([file.text], { type: file.type ?? 'application/xml' }), file.name)
  body.set('_payload', JSON.stringify(options))
  return browser.request('/api/import-reports/upload', { method: 'POST', body })
}

const errorsOf = async (reply: { json: () => Promise<any> }) => (await reply.json()).errors as { message: string; data?: { errors: { path: string; message: string }[] } }[]
const articleCount = async () => (await t.payload.count({ collection: 'articles', overrideAccess: true })).totalDocs

describe('import from the admin', () => {
  it('refuses an anonymous visitor (401) and an author (403) with a clear message, storing nothing', async () => {
    const anonymous = await upload(await signedIn(), { name: 'site.xml', text: smallWxr() })
    expect(anonymous.status).toBe(401)
    expect((await errorsOf(anonymous))[0]!.message).toBe('Sign in as the site owner to import a blog.')
    const author = await upload(await signedIn('author@example.test'), { name: 'site.xml', text: smallWxr() })
    expect(author.status).toBe(403)
    expect((await errorsOf(author))[0]!.message).toBe('Only the site owner may import a blog (the import.run permission).')
    // An administrator runs the site but is not its owner: the permission is the owner's alone.
    expect((await upload(await signedIn('admin@example.test'), { name: 'site.xml', text: smallWxr() })).status).toBe(403)
    expect((await query(t.payload, 'select count(*)::int as n from import_reports'))[0]!.n).toBe(0)
  })

  it('refuses, naming the file field, what is not a WordPress (XML) or Ghost (JSON) export, and a missing file', async () => {
    const owner = await signedIn('owner@example.test')
    for (const file of [
      { name: 'notes.txt', text: 'Just some notes, not an export.', type: 'text/plain' },
      { name: 'page.xml', text: '<html><body>not WXR</body></html>' },
      { name: 'photo.png', text: '\x89PNG\r\n\x1a\n', type: 'image/png' },
    ]) {
      const reply = await upload(owner, file)
      expect(reply.status, file.name).toBe(400)
      const [error] = await errorsOf(reply)
      expect(error!.data!.errors[0]).toEqual({ path: 'file', message: 'This file is neither a WordPress export (WXR, XML) nor a Ghost export (JSON).' })
    }
    const none = await upload(owner, null)
    expect(none.status).toBe(400)
    expect((await errorsOf(none))[0]!.data!.errors[0]!.path).toBe('file')
    expect((await query(t.payload, 'select count(*)::int as n from import_reports'))[0]!.n).toBe(0)
  })

  it('refuses a report created without an upload on every path (the rule is the collection’s)', async () => {
    const refused = await t.payload.create({ collection: 'import-reports', data: { dryRun: true } as never, overrideAccess: false, user: cast.owner }).catch((e) => e)
    expect(refused.data.errors).toEqual([{ path: 'file', message: 'Choose a WordPress (.xml) or Ghost (.json) export file.' }])
    await expect(t.payload.create({ collection: 'import-reports', data: {} as never, overrideAccess: false, user: cast.author })).rejects.toThrow(/not allowed/)
  })

  let reportId: number

  it('imports an uploaded WXR as a queued job: progress reaches 100% and the report is kept, readable by the owner only', async () => {
    const owner = await signedIn('owner@example.test')
    const reply = await upload(owner, { name: 'old-blog.xml', text: smallWxr() }, { siteOwner: 'alice', pagesCategory: 'Static pages', skipMedia: true })
    expect(reply.status).toBe(201)
    const { doc } = await reply.json()
    reportId = doc.id
    expect(doc).toMatchObject({ file: 'old-blog.xml', source: 'wordpress', status: 'queued', siteOwner: 'alice', pagesCategory: 'Static pages', skipMedia: true, dryRun: false })
    expect(doc.requestedBy).toBeTruthy()

    await syncJobsIdle()
    const run = await (await owner.request(`/api/import-reports/${reportId}?depth=0`)).json()
    expect(run.status).toBe('done')
    expect(run.progressTotal).toBeGreaterThan(0)
    expect(run.progressDone).toBe(run.progressTotal)
    expect(run.summary).toMatch(/^imported \d+ items/)
    expect(run.report.counts.articles).toMatchObject({ imported: 2, failed: 0 })
    expect(run.report.counts.pages).toMatchObject({ imported: 1 })
    expect(run.report.counts.replies).toMatchObject({ imported: 2 })
    expect(run.report.file).toBe('old-blog.xml')
    expect(run.report.lines[0]).toBe('Import of old-blog.xml (wordpress)')
    // The pages went into the category the owner named; the bytes are gone once imported.
    expect((await t.payload.find({ collection: 'categories', where: { name: { equals: 'Static pages' } }, overrideAccess: true })).totalDocs).toBe(1)
    expect((await query(t.payload, 'select count(*)::int as n from import_uploads'))[0]!.n).toBe(0)

    for (const email of ['author@example.test', 'admin@example.test']) {
      const other = await signedIn(email)
      expect((await other.request(`/api/import-reports/${reportId}`)).status, email).toBe(403)
      expect((await (await other.request('/api/import-reports')).json()).docs ?? [], email).toHaveLength(0)
    }
  })

  it('a retried job (the worker crashed mid-import) imports nothing twice', async () => {
    const before = await articleCount()
    // As a crash leaves it: running, the file still stored.
    await query(t.payload, `update import_reports set status = 'running' where id = $1`, [reportId])
    await query(t.payload, `insert into import_uploads (report_id, bytes) values ($1, $2)`, [reportId, Buffer.from(smallWxr())])
    await jobDefinition(t.payload, 'run-import').handler(t.payload, { reportId } as never)
    const run = await t.payload.findByID({ collection: 'import-reports', id: reportId, overrideAccess: true })
    expect(run.status).toBe('done')
    expect((run.report as any).counts.articles).toMatchObject({ imported: 0, existing: 2 })
    expect(await articleCount()).toBe(before)
    // Run again once done: nothing happens at all.
    await jobDefinition(t.payload, 'run-import').handler(t.payload, { reportId } as never)
    expect(await articleCount()).toBe(before)
  })

  it('keeps a dry run’s report and writes nothing; a broken export ends as failed with the importer’s message', async () => {
    const owner = await signedIn('owner@example.test')
    const before = await articleCount()
    const dry = await (await upload(owner, { name: 'again.xml', text: smallWxr('https://other.example') }, { dryRun: true, skipMedia: true })).json()
    await syncJobsIdle()
    const dryRun = await (await owner.request(`/api/import-reports/${dry.doc.id}`)).json()
    expect(dryRun).toMatchObject({ status: 'done', dryRun: true })
    expect(dryRun.summary).toMatch(/^dry run: would import/)
    expect(await articleCount()).toBe(before)

    const truncated = smallWxr().slice(0, 900)
    const bad = await (await upload(owner, { name: 'cut.xml', text: truncated }, { skipMedia: true })).json()
    await syncJobsIdle()
    const failed = await (await owner.request(`/api/import-reports/${bad.doc.id}`)).json()
    expect(failed.status).toBe('failed')
    expect(failed.error).toBeTruthy()
    expect(failed.error).not.toContain('inkwell-import-')
    expect((await query(t.payload, 'select count(*)::int as n from import_uploads'))[0]!.n).toBe(0)
  })

  it('the page itself answers 403 to signed-in users without import.run and 200 to the owner (the one-origin server’s guard)', async () => {
    // A tiny server stands in for the one-origin server: the guard first, then "the view".
    const server = http.createServer((req, res) => {
      if (!isGuardedAdminView(t.payload, req.method, req.url!.split('?')[0]!)) return void res.writeHead(404).end()
      void guardAdminView(t.payload, req, res).then((answered) => answered || res.writeHead(200).end('the import page'))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const navigation = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate' }
    const tokenOf = async (email: string) => (await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })).token!
    try {
      for (const email of ['author@example.test', 'admin@example.test']) {
        const response = await fetch(`${base}/admin/import`, { headers: { cookie: `payload-token=${await tokenOf(email)}`, ...navigation }, redirect: 'manual' })
        expect(response.status, email).toBe(403)
        expect(await response.text()).toContain('<code>import.run</code>')
      }
      const owner = await fetch(`${base}/admin/import/`, { headers: { cookie: `payload-token=${await tokenOf('owner@example.test')}`, ...navigation }, redirect: 'manual' })
      expect(owner.status).toBe(200)
      const anonymous = await fetch(`${base}/admin/import`, { headers: navigation, redirect: 'manual' })
      expect(anonymous.status).toBe(307)
      expect(anonymous.headers.get('location')).toBe(`/admin/login?redirect=${encodeURIComponent('/admin/import')}`)
    } finally {
      server.close()
    }
  })
})
