/**
 * docs/EXTENDING.md's worked example, composed into a real Payload the way the
 * guide says (`inkwellPlugins(env, { extra: [bookmarksPlugin()] })`): its table
 * comes from its own migration, its job runs (sync queue), its schedule and
 * command are in the registry `npm run blog -- --help` prints, and its access
 * rules hold through the Local API with overrideAccess: false.
 */
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { up } from '../../docs/examples/bookmarksMigration'
import { bookmarksPlugin } from '../../docs/examples/bookmarksPlugin'
import { registeredCommands } from '../../jobs/commands'
import { syncJobsIdle } from '../../jobs/queue'
import { poolOf } from '../../src/lib/pool'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

// The example's collection is not in the generated payload-types (it is not in the app's list).
const BOOKMARKS = 'bookmarks' as never

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
let article: { id: number }

const countOf = async (payload: Payload, id: number) =>
  ((await payload.findByID({ collection: 'articles', id, depth: 0 })) as unknown as { bookmarkCount: number }).bookmarkCount

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' }, { plugins: (compose, env) => compose(env, { extra: [bookmarksPlugin()] }) })
  // The test database is built from the app's migrations; the example carries its own.
  await up({ db: (t.payload.db as unknown as { drizzle: never }).drizzle, payload: t.payload, req: {} as never })
  cast = await createCast(t.payload)
  article = await t.payload.create({
    collection: 'articles',
    data: { title: 'Worth keeping', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
  })
})
afterAll(() => t?.destroy())

const bookmark = (user: (typeof cast)['reader'], data: Record<string, unknown>) =>
  t.payload.create({ collection: BOOKMARKS, data: data as never, overrideAccess: false, user, depth: 0 }) as Promise<{ id: number; reader: number }>

describe('the bookmarks example plugin', () => {
  it('registers its job, hourly schedule and command where `npm run blog -- --help` reads them', () => {
    const { commands, schedules, jobs } = registeredCommands(t.payload)
    expect(schedules.find((s) => s.name === 'recount-bookmarks')?.cron).toBe('0 * * * *')
    expect(commands.map((c) => c.name)).toContain('top-bookmarks')
    expect(Object.keys(jobs)).toContain('count-bookmarks')
  })

  it('counts bookmarks through its job after each write', async () => {
    const mine = await bookmark(cast.reader, { article: article.id, reader: cast.otherAuthor.id, note: 'later' })
    expect(mine.reader).toBe(cast.reader.id) // stamped: a reader cannot bookmark for someone else
    await bookmark(cast.otherAuthor, { article: article.id })
    await syncJobsIdle()
    expect(await countOf(t.payload, article.id)).toBe(2)

    await t.payload.delete({ collection: BOOKMARKS, id: mine.id, overrideAccess: false, user: cast.reader })
    await syncJobsIdle()
    expect(await countOf(t.payload, article.id)).toBe(1)
  })

  it('refuses a bookmark of an article the reader cannot read', async () => {
    const draft = await t.payload.create({
      collection: 'articles',
      data: { title: 'Not yet', format: 'markdown', markdown: 'x', status: 'draft', author: cast.author.id },
    })
    const refusal = await bookmark(cast.reader, { article: draft.id }).catch((error: { data?: { errors?: { message: string }[] } }) => error)
    expect((refusal as { data: { errors: { message: string }[] } }).data.errors[0]!.message).toBe('You can only bookmark a published article you can read.')
  })

  it('keeps each reader to their own bookmarks', async () => {
    const theirs = await bookmark(cast.reader, { article: article.id, note: 'private' })
    const asOther = { overrideAccess: false, user: cast.otherAuthor } as const
    const seen = await t.payload.find({ collection: BOOKMARKS, ...asOther })
    expect(seen.docs.map((d) => (d as { id: number }).id)).not.toContain(theirs.id)
    await expect(t.payload.findByID({ collection: BOOKMARKS, id: theirs.id, ...asOther })).rejects.toThrow()
    await expect(t.payload.update({ collection: BOOKMARKS, id: theirs.id, data: { note: 'mine now' } as never, ...asOther })).rejects.toThrow()
    await expect(t.payload.delete({ collection: BOOKMARKS, id: theirs.id, ...asOther })).rejects.toThrow()
    // A holder of users.manage (the administrator) sees everyone's.
    const all = await t.payload.find({ collection: BOOKMARKS, overrideAccess: false, user: cast.admin })
    expect(all.docs.map((d) => (d as { id: number }).id)).toContain(theirs.id)
  })

  it('repairs counts on its schedule and lists the top articles by command', async () => {
    await syncJobsIdle()
    await poolOf(t.payload)!.query('update articles set bookmark_count = 40 where id = $1', [article.id])
    const { commands, schedules } = registeredCommands(t.payload)
    const lines: string[] = []
    const io = { log: (line: string) => lines.push(line), progress: () => {} }

    expect(await schedules.find((s) => s.name === 'recount-bookmarks')!.run(t.payload, io)).toBe('1 article(s) corrected')
    expect(await countOf(t.payload, article.id)).toBe(2)
    expect(await commands.find((c) => c.name === 'top-bookmarks')!.run(t.payload, io)).toBe('1 article(s) listed')
    expect(lines).toEqual([`2  #${article.id} Worth keeping`])
  })
})
