/**
 * Issue 32 §2: `backup <dir>` while the site takes writes, `restore <dir>` into
 * a fresh instance, and every refusal a restore makes before it touches anything.
 */
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

import type { Payload } from 'payload'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { registeredCommands, type CommandIO } from '../../jobs/commands'
import type { Manifest } from '../../src/plugins/backup/manifest'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { runScript, scriptEnv } from '../helpers/script'
import { createCast, PASSWORD } from '../helpers/users'

let source: TestPayload
let target: TestPayload
let root: string
let backupDir: string
let cast: Awaited<ReturnType<typeof createCast>>
let article: { id: number }
let mediaFile: { filename: string; bytes: Buffer }

const quiet: CommandIO = { log: () => {}, progress: () => {} }

/** Runs a registered command in-process, as the CLI would (its CommandFailure rejects with the message shown). */
function command(payload: Payload, name: string, args: string[] = []): Promise<string> {
  const { commands, schedules } = registeredCommands(payload)
  const found = [...commands, ...schedules].find((c) => c.name === name)
  if (!found) throw new Error(`no command ${name}`)
  return found.run(payload, quiet, args)
}

const mediaDirOf = (payload: Payload) => payload.config.collections.find((c) => c.slug === 'media')!.upload.staticDir as string
const count = async (payload: Payload, collection: 'users' | 'articles' | 'replies' | 'media') => (await payload.count({ collection, overrideAccess: true })).totalDocs

beforeAll(async () => {
  source = await createTestPayload()
  cast = await createCast(source.payload)
  const category = await source.payload.create({ collection: 'categories', data: { name: '随笔' } })
  article = await source.payload.create({
    collection: 'articles',
    data: { title: '备份与恢复', format: 'markdown', markdown: '写给**将来**的一封信。', status: 'published', author: cast.author.id, category: category.id },
  })
  await source.payload.create({ collection: 'replies', data: { article: article.id, body: 'First!' }, overrideAccess: false, user: cast.reader })
  await source.payload.updateGlobal({ slug: 'site-settings', data: { siteName: 'Backed-up blog' } })
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } }).png().toBuffer()
  const media = await source.payload.create({ collection: 'media', data: { alt: 'A blue square', owner: cast.author.id }, file: { data: png, mimetype: 'image/png', name: 'blue.png', size: png.length } })
  mediaFile = { filename: media.filename!, bytes: await readFile(path.join(mediaDirOf(source.payload), media.filename!)) }

  root = await mkdtemp(path.join(tmpdir(), 'inkwell-backups-'))
  backupDir = path.join(root, 'first')
  // The target: another database and another DATA_DIR, with the nightly schedule on.
  target = await createTestPayload({ BACKUP_DIR: path.join(root, 'nightly'), BACKUP_KEEP: '2' }, { plugins: (compose, env) => compose(env) })
}, 180_000)

afterAll(async () => {
  await source?.destroy()
  await target?.destroy()
  if (root) await rm(root, { recursive: true, force: true })
})

describe('backup', () => {
  it('writes a consistent backup while replies keep arriving', async () => {
    let writing = true
    let written = 0
    const load = (async () => {
      while (writing) {
        await source.payload.create({ collection: 'replies', data: { article: article.id, body: `Under load ${written}` }, overrideAccess: false, user: cast.reader })
        written++
      }
    })()
    // Let the load start before the snapshot, so rows arrive during it.
    while (written < 3) await new Promise((r) => setTimeout(r, 20))
    const summary = await command(source.payload, 'backup', [backupDir])
    const during = written
    writing = false
    await load
    expect(summary).toMatch(/^backup written to .*first: \d+ tables, \d+ rows, \d+ media files/)
    expect(written).toBeGreaterThan(3)

    const manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as Manifest
    const replies = manifest.tables.find((t) => t.name === 'replies')!.rows
    // One instant: at least the replies written before the backup began, never more than were written by its end.
    expect(replies).toBeGreaterThanOrEqual(1 + 3)
    expect(replies).toBeLessThanOrEqual(1 + during)
    expect(manifest.migrations.length).toBeGreaterThan(20)
    // The upload and its generated sizes.
    expect(manifest.media.map((m) => m.path)).toContain(mediaFile.filename)
    // Nothing half-built is left beside it.
    expect((await readdir(root)).filter((n) => n.includes('.partial'))).toEqual([])
  })

  it('refuses a directory that is not empty', async () => {
    await expect(command(source.payload, 'backup', [backupDir])).rejects.toThrow(/is not empty: give a new directory/)
    await expect(command(source.payload, 'backup', [])).rejects.toThrow(/backup needs one directory/)
  })
})

describe('restore', () => {
  it('restores into a fresh instance: pages, replies, users who sign in with the same password, settings and files', async () => {
    expect(await count(target.payload, 'users')).toBe(0)
    const summary = await command(target.payload, 'restore', [backupDir])
    expect(summary).toMatch(/^restored \d+ rows in \d+ tables and \d+ media files/)

    const manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as Manifest
    const rowsOf = (table: string) => manifest.tables.find((t) => t.name === table)!.rows
    for (const collection of ['users', 'articles', 'replies', 'media'] as const) expect(await count(target.payload, collection), collection).toBe(rowsOf(collection))

    const restored = await target.payload.findByID({ collection: 'articles', id: article.id, overrideAccess: false, user: null })
    expect(restored.title).toBe('备份与恢复')
    expect(restored.html).toContain('<strong>将来</strong>')
    // The article's kept reply count matches its replies: the snapshot was one instant.
    const replies = await count(target.payload, 'replies')
    expect(restored.replyCount).toBe(replies)

    const { user } = await target.payload.login({ collection: 'users', data: { email: 'reader@example.test', password: PASSWORD } })
    expect(user?.id).toBe(cast.reader.id)
    expect((await target.payload.findGlobal({ slug: 'site-settings' })).siteName).toBe('Backed-up blog')
    expect(await readFile(path.join(mediaDirOf(target.payload), mediaFile.filename))).toEqual(mediaFile.bytes)

    // Sequences go on after the restored ids: new rows do not collide.
    const [last] = (await target.payload.find({ collection: 'replies', sort: '-id', limit: 1, depth: 0 })).docs
    const next = await target.payload.create({ collection: 'replies', data: { article: article.id, body: 'After the restore' }, overrideAccess: false, user: cast.reader })
    expect(next.id).toBeGreaterThan(last!.id)
    expect(await count(target.payload, 'replies')).toBe(replies + 1)
  })

  it('refuses a site that is not empty without --force, and replaces it with --force', async () => {
    await expect(command(target.payload, 'restore', [backupDir])).rejects.toThrow(/already holds a site .* add --force to replace it/)
    const before = await count(target.payload, 'replies')
    await command(target.payload, 'restore', [backupDir, '--force'])
    // The reply written after the first restore is gone: the site is the backup again.
    expect(await count(target.payload, 'replies')).toBe(before - 1)
  })

  it('says so in one line from the command line, exit 1, no stack', async () => {
    const run = await runScript('jobs/cli.ts', ['restore', backupDir], scriptEnv(target.databaseUrl))
    expect(run.code).toBe(1)
    expect(run.stderr + run.stdout).toMatch(/already holds a site/)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  }, 120_000)

  describe('a damaged backup is refused before anything is touched', () => {
    const cases: [string, (dir: string) => Promise<void>, RegExp][] = [
      ['a flipped byte', async (dir) => {
        const file = path.join(dir, 'db', 'articles.tsv.gz')
        const bytes = await readFile(file)
        bytes[Math.floor(bytes.length / 2)] ^= 0xff
        await writeFile(file, bytes)
      }, /db\/articles\.tsv\.gz does not match its checksum \(damaged\)/],
      ['a truncated table', async (dir) => truncate(path.join(dir, 'db', 'replies.tsv.gz'), 10), /db\/replies\.tsv\.gz is 10 bytes, the manifest says \d+ \(truncated or damaged\)/],
      ['a missing media file', async (dir) => rm(path.join(dir, 'media', mediaFile.filename)), /is missing from the backup/],
      ['no manifest (an unfinished backup)', async (dir) => rm(path.join(dir, 'manifest.json')), /is not a backup \(no manifest\.json/],
      ['a manifest that is not JSON', async (dir) => writeFile(path.join(dir, 'manifest.json'), '{"format": "inkwell-b'), /manifest\.json is not valid JSON/],
      ['a media path that climbs out', async (dir) => {
        const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest
        manifest.media[0]!.path = '../../../../tmp/escaped.png'
        await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest))
      }, /outside the backup/],
      ['another version’s migrations', async (dir) => {
        const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest
        manifest.migrations.push('20991231_000000_future')
        await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest))
      }, /made by another version of Inkwell \(migrations unknown here: 20991231_000000_future\)/],
    ]
    for (const [what, damage, message] of cases) {
      it(what, async () => {
        const copy = path.join(root, `damaged-${what.replace(/\W+/g, '-')}`)
        await cp(backupDir, copy, { recursive: true })
        await damage(copy)
        const replies = await count(target.payload, 'replies')
        await expect(command(target.payload, 'restore', [copy, '--force'])).rejects.toThrow(message)
        expect(await count(target.payload, 'replies')).toBe(replies)
      })
    }
  })
})

describe('the nightly schedule', () => {
  it('writes BACKUP_DIR/inkwell-<time> and keeps the newest BACKUP_KEEP', async () => {
    const nightly = path.join(root, 'nightly')
    const schedule = registeredCommands(target.payload).schedules.find((s) => s.name === 'backup-nightly')
    expect(schedule?.cron).toBe('30 2 * * *')
    expect(registeredCommands(source.payload).schedules.some((s) => s.name === 'backup-nightly')).toBe(false) // no BACKUP_DIR, no schedule
    for (let i = 0; i < 3; i++) {
      expect(await command(target.payload, 'backup-nightly')).toMatch(/backup written to .*inkwell-\d{8}T\d{6}Z/)
      await new Promise((r) => setTimeout(r, 1_100)) // names carry the second
    }
    const kept = (await readdir(nightly)).sort()
    expect(kept).toHaveLength(2)
    for (const name of kept) expect(existsSync(path.join(nightly, name, 'manifest.json'))).toBe(true)
  }, 60_000)
})
