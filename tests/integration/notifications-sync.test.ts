/**
 * QUEUE_CONNECTION=sync: a reply notifies the article's author in-site and by
 * e-mail (received by a real SMTP server), right after the reply commits.
 */
import { once } from 'node:events'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { queueOf, syncJobsIdle } from '../../jobs/queue'
import { writeArticle } from '../helpers/articles'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { recipient, startInbox, smtpEnv, type Inbox } from '../helpers/smtp'
import { createCast } from '../helpers/users'

let t: TestPayload
let inbox: Inbox
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number

beforeAll(async () => {
  inbox = await startInbox()
  t = await createTestPayload({ ...smtpEnv(inbox), QUEUE_CONNECTION: 'sync', BASE_URL: 'http://blog.example.test', SYNC_RETRY_SCALE: '0.05' })
  cast = await createCast(t.payload)
  articleId = (await writeArticle(t.payload, cast.author, 'Queues in practice')).id
})
afterAll(async () => {
  await syncJobsIdle()
  await t?.destroy()
  await inbox?.stop()
})

const reply = (user: typeof cast.reader, body: string) =>
  t.payload.create({ collection: 'replies', data: { article: articleId, body }, overrideAccess: false, user })

describe('notify the article author (sync)', () => {
  it('writes an in-site notification and sends one e-mail with the title, excerpt and link', async () => {
    const created = await reply(cast.reader, 'Great post about queues!')
    const [mail] = await inbox.waitFor(1)
    await syncJobsIdle()
    expect(recipient(mail!)).toBe('author@example.test')
    expect(mail!.subject).toBe('New reply on “Queues in practice”')
    expect(mail!.text).toContain('Great post about queues!')
    expect(mail!.text).toContain(`http://blog.example.test/articles/${articleId}/queues-in-practice#reply-${created.id}`)
    expect(mail!.html).toContain('<blockquote>')

    const { docs } = await t.payload.find({ collection: 'notifications', where: { reply: { equals: created.id } } })
    expect(docs).toHaveLength(1)
    expect(docs[0]).toMatchObject({ kind: 'reply', readAt: null })
    expect(docs[0]!.mailedAt).toBeTruthy()
    const author = await t.payload.findByID({ collection: 'users', id: cast.author.id })
    expect(author.unreadNotifications).toBe(1)
  })

  it('does not notify authors of their own replies', async () => {
    const before = inbox.messages.length
    const own = await reply(cast.author, 'Thanks everyone')
    await reply(cast.reader, 'Marker reply')
    await inbox.waitFor(before + 1)
    await syncJobsIdle() // the own reply's job has finished too, so an absence below means something
    const { totalDocs } = await t.payload.count({ collection: 'notifications', where: { reply: { equals: own.id } } })
    expect(totalDocs).toBe(0)
    // (not.toContain(expect.stringContaining(…)) compares by identity and could never fail)
    expect(inbox.messages.slice(before).filter((m) => m.text?.includes('Thanks everyone'))).toEqual([])
  })

  it('lets the recipient mark it read, which updates the unread count', async () => {
    const { docs } = await t.payload.find({ collection: 'notifications', where: { recipient: { equals: cast.author.id } }, overrideAccess: false, user: cast.author })
    for (const n of docs) {
      await t.payload.update({ collection: 'notifications', id: n.id, data: { readAt: new Date().toISOString() }, overrideAccess: false, user: cast.author })
    }
    expect((await t.payload.findByID({ collection: 'users', id: cast.author.id })).unreadNotifications).toBe(0)
  })

  it('keeps the reply when the mail server is down, and mails once it is back', async () => {
    await inbox.stop()
    const before = inbox.messages.length
    const firstTryFailed = once(queueOf(t.payload).events, 'retry')
    const kept = await reply(cast.reader, 'Posted while mail is down')
    expect(await t.payload.findByID({ collection: 'replies', id: kept.id })).toBeTruthy()
    // The first try fails on the closed port; a retry delivers once the server is back.
    const [failure] = await firstTryFailed
    expect(failure).toMatchObject({ name: 'notify-article-author', attempt: 1 })
    await inbox.start()
    await syncJobsIdle()
    expect(inbox.messages.slice(before).filter((m) => m.text?.includes('Posted while mail is down'))).toHaveLength(1)
    const { docs } = await t.payload.find({ collection: 'notifications', where: { reply: { equals: kept.id } } })
    expect(docs).toHaveLength(1)
    expect(docs[0]!.mailedAt).toBeTruthy()
  })
})

describe('queue console in sync mode', () => {
  it('has no queue to monitor', async () => {
    const { loadQueueConsole } = await import('../../src/plugins/jobs/admin/queueConsoleData')
    expect(await loadQueueConsole(t.payload)).toEqual({ mode: 'sync' })
  })
})
