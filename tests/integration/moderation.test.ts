/**
 * Moderation (issue 29) on a real database and SMTP server, QUEUE_CONNECTION=sync:
 * reply states on the Local API, REST and GraphQL; what readers see and count;
 * notifications on approval exactly once; the state log; the queue's pages;
 * bad input. Akismet has an address here (a loopback fake) but no key: it is
 * never asked (tests/integration/moderationAkismet.test.ts asks it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { syncJobsIdle } from '../../jobs/queue'
import { startAkismetServer, type AkismetServer } from '../helpers/akismetServer'
import type { User } from '../../src/payload-types'
import { writeArticle } from '../helpers/articles'
import { setRules } from '../helpers/moderation'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { recipient, smtpEnv, startInbox, type Inbox } from '../helpers/smtp'
import { createCast, PASSWORD, register } from '../helpers/users'

let t: TestPayload
let inbox: Inbox
let akismet: AkismetServer
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number

beforeAll(async () => {
  inbox = await startInbox()
  akismet = await startAkismetServer()
  // LOG_LEVEL: the burst's 40 refusals would each log a line. AKISMET_KEY empty: Akismet is off.
  t = await createTestPayload({ ...smtpEnv(inbox), QUEUE_CONNECTION: 'sync', LOG_LEVEL: 'fatal', AKISMET_KEY: '', AKISMET_ENDPOINT: akismet.url })
  cast = await createCast(t.payload)
  articleId = (await writeArticle(t.payload, cast.author, 'Held back')).id
  await setRules(t.payload) // a fresh site's defaults: first reply held, 3+ links held
})
afterAll(async () => {
  await syncJobsIdle()
  await t?.destroy()
  await inbox?.stop()
  await akismet?.stop()
})

const post = (user: User, body: string, article = articleId) =>
  t.payload.create({ collection: 'replies', data: { article, body }, overrideAccess: false, user })
const readAs = (user: User | undefined, id: number) =>
  t.payload.findByID({ collection: 'replies', id, overrideAccess: false, user, disableErrors: true, depth: 0 })
const replyCount = async () => (await t.payload.findByID({ collection: 'articles', id: articleId, depth: 0 })).replyCount
const mailsTo = (address: string) => inbox.messages.filter((m) => recipient(m) === address).length
const setState = (id: number, status: string, user: User = cast.owner) =>
  t.payload.update({ collection: 'replies', id, data: { status } as never, overrideAccess: false, user })

async function token(email: string): Promise<string> {
  return (await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })).token!
}

describe('a new reader’s first reply', () => {
  let newcomer: User
  let held: { id: number; status?: string | null }

  it('is held: its writer sees it, nobody else does, nothing counts it, nobody is told', async () => {
    newcomer = await register(t.payload, 'newcomer@example.test')
    held = await post(newcomer, 'Lovely piece, thank you for writing it.')
    await syncJobsIdle()
    expect(held.status).toBe('held')
    expect((await readAs(newcomer, held.id))?.status).toBe('held')
    expect(await readAs(undefined, held.id)).toBeNull()
    expect(await readAs(cast.reader, held.id)).toBeNull()
    const listed = await t.payload.find({ collection: 'replies', where: { article: { equals: articleId } }, overrideAccess: false })
    expect(listed.docs.map((r) => r.id)).not.toContain(held.id)
    expect(await replyCount()).toBe(0)
    expect(mailsTo('author@example.test')).toBe(0)
    // Moderators see it, with its score and reasons.
    const seen = await readAs(cast.admin, held.id)
    expect(seen).toMatchObject({ status: 'held', moderationReasons: expect.arrayContaining(['first reply', 'new account']) })
    expect(typeof seen?.spamScore).toBe('number')
  })

  it('cannot be published by its writer, on the Local API, REST or GraphQL', async () => {
    await setState(held.id, 'published', newcomer)
    const browser = new Browser(t.payload, t.databaseName)
    const auth = { authorization: `JWT ${await token('newcomer@example.test')}` }
    const rest = await browser.request(`/api/replies/${held.id}`, { method: 'PATCH', json: { status: 'published' }, headers: auth })
    expect(rest.status).toBeLessThan(500)
    const graphql = await browser.request('/api/graphql', {
      method: 'POST',
      json: { query: `mutation { updateReply(id: ${held.id}, data: { status: published }) { id status } }` },
      headers: auth,
    })
    expect(graphql.status).toBeLessThan(500)
    // Nor can a reader create a reply already published.
    const created = await browser.request('/api/replies', { method: 'POST', json: { article: articleId, body: 'Sneaky second one', status: 'published' }, headers: auth })
    expect(created.status).toBe(201)
    expect((await created.json()).doc.status).toBe('held')
    expect((await t.payload.findByID({ collection: 'replies', id: held.id, depth: 0 })).status).toBe('held')
  })

  it('approved, notifies the author once, however often it is approved again; counts; the log says who and when', async () => {
    await setState(held.id, 'published')
    await inbox.waitFor(1)
    await syncJobsIdle()
    expect(mailsTo('author@example.test')).toBe(1)
    expect(await replyCount()).toBe(1)
    expect(await readAs(undefined, held.id)).toMatchObject({ id: held.id })

    await setState(held.id, 'held')
    expect(await replyCount()).toBe(0)
    await setState(held.id, 'published')
    await syncJobsIdle()
    expect(mailsTo('author@example.test')).toBe(1)
    expect(await t.payload.count({ collection: 'notifications', where: { reply: { equals: held.id } } })).toMatchObject({ totalDocs: 1 })

    const log = await t.payload.find({ collection: 'moderation-events', where: { reply: { equals: held.id } }, sort: 'createdAt', depth: 0 })
    expect(log.docs.map((e) => [e.from ?? null, e.to, e.actor ?? null])).toEqual([
      [null, 'held', null],
      ['held', 'published', cast.owner.id],
      ['published', 'held', cast.owner.id],
      ['held', 'published', cast.owner.id],
    ])
    // Readers cannot read the log.
    await expect(t.payload.find({ collection: 'moderation-events', overrideAccess: false, user: cast.reader })).rejects.toMatchObject({ status: 403 })
  })

  it('once one reply is approved, the next one is published at once', async () => {
    const next = await post(newcomer, 'And a follow-up thought on the second section.')
    expect(next.status).toBe('published')
  })
})

describe('an answer held, then approved', () => {
  it('tells the answered reply’s writer when it is approved', async () => {
    const answered = await post(cast.owner, 'What do you all think?')
    const stranger = await register(t.payload, 'stranger@example.test')
    const answer = await t.payload.create({ collection: 'replies', data: { article: articleId, body: 'I think it works well.', parent: answered.id }, overrideAccess: false, user: stranger })
    expect(answer.status).toBe('held')
    await syncJobsIdle()
    const before = mailsTo('owner@example.test')
    await setState(answer.id, 'published')
    await syncJobsIdle()
    expect(mailsTo('owner@example.test')).toBe(before + 1)
  })
})

describe('the owner’s rules', () => {
  it('refuses blocked words with a message naming the body field; holds listed words, Chinese ones too; trusts roles', async () => {
    await setRules(t.payload, { blockWords: 'casino', holdWords: '代购\nrefund', holdFirstReplies: 0 })
    await expect(post(cast.reader, 'Best CASINO bonus here')).rejects.toMatchObject({ status: 400, data: { errors: [{ path: 'body' }] } })
    expect((await post(cast.reader, 'A classic casinos-free reply about class')).status).toBe('published')
    expect((await post(cast.reader, '找我代购便宜')).status).toBe('held')
    expect((await post(cast.reader, 'Please refund me')).status).toBe('held')
    expect((await post(cast.reader, 'Refunding is a different word')).status).toBe('published')
    await setRules(t.payload, { holdAll: true, trustedRoles: 'reader' })
    expect((await post(cast.reader, 'Trusted, so published')).status).toBe('published')
    expect((await post(cast.otherAuthor, 'Not trusted now')).status).toBe('held')
    await setRules(t.payload)
  })

  it('holds three links; sends a blocked writer’s replies to spam', async () => {
    const linker = await register(t.payload, 'linker@example.test')
    await setRules(t.payload, { holdFirstReplies: 0 })
    expect((await post(linker, 'See https://a.example and https://b.example and https://c.example')).status).toBe('held')
    expect((await post(linker, 'The docs: https://docs.example/guide')).status).toBe('published')
    await t.payload.update({ collection: 'users', id: linker.id, data: { moderationBlocked: true } as never, overrideAccess: false, user: cast.owner })
    expect((await post(linker, 'Anything at all')).status).toBe('spam')
    await setRules(t.payload)
  })
})

describe('the moderation queue, reports and the digest', () => {
  it('lets a reader report a reply once; moderators see it in the queue; bulk spam with block over the endpoint, refused to readers', async () => {
    const spammer = await register(t.payload, 'spammer@example.test')
    await setRules(t.payload, { holdFirstReplies: 0 })
    const a = await post(spammer, 'Visit my shop for deals')
    const b = await post(spammer, 'Another deal for you')
    expect([a.status, b.status]).toEqual(['published', 'published'])
    const report = () => t.payload.create({ collection: 'reply-reports', data: { reply: a.id } as never, overrideAccess: false, user: cast.reader })
    await report()
    await expect(report()).rejects.toMatchObject({ status: 400, data: { errors: [{ path: 'reply' }] } })
    const { loadQueue } = await import('../../src/plugins/moderation/queue')
    const reported = await loadQueue(t.payload, 'reported')
    expect(reported.items.map((i) => i.id)).toContain(a.id)
    expect(reported.items.find((i) => i.id === a.id)?.writer?.history).toMatchObject({ published: 2 })

    const browser = new Browser(t.payload, t.databaseName)
    const asReader = await browser.request('/api/moderation/replies', { json: { action: 'spam', ids: [a.id] }, headers: { authorization: `JWT ${await token('reader@example.test')}`, accept: 'application/json' } })
    expect(asReader.status).toBe(403)
    const bad = await browser.request('/api/moderation/replies', { json: { action: 'delete', ids: [a.id] }, headers: { authorization: `JWT ${await token('admin@example.test')}`, accept: 'application/json' } })
    expect(bad.status).toBe(400)
    const done = await browser.request('/api/moderation/replies', {
      json: { action: 'spam', ids: [a.id, b.id], block: 'on' },
      headers: { authorization: `JWT ${await token('admin@example.test')}`, accept: 'application/json' },
    })
    expect(done.status).toBe(200)
    expect(await done.json()).toEqual({ updated: expect.arrayContaining([a.id, b.id]), blocked: true })
    expect((await t.payload.findByID({ collection: 'users', id: spammer.id, depth: 0 })).moderationBlocked).toBe(true)
    expect((await post(spammer, 'And again')).status).toBe('spam')
    expect((await loadQueue(t.payload, 'reported')).items.map((i) => i.id)).not.toContain(a.id) // the report is resolved
    // The classifier learnt both as spam.
    const { query } = await import('../../src/lib/pool')
    const [docs] = await query<{ spam: number }>(t.payload, `select spam from moderation_tokens where token = '#docs'`)
    expect(docs!.spam).toBeGreaterThanOrEqual(2)
    await setRules(t.payload)
  })

  it('pages the queue: a page of held replies at a time, every one once, the count of all; a page past the end shows the last', async () => {
    const { loadQueue } = await import('../../src/plugins/moderation/queue')
    // The application's own writes may set a state: twelve held replies, without scoring each.
    for (let i = 0; i < 12; i++) {
      await t.payload.create({ collection: 'replies', data: { article: articleId, body: `Waiting reply ${i}`, author: cast.reader.id, status: 'held' } as never })
    }
    const first = await loadQueue(t.payload, 'held', 1, 5)
    expect(first.total).toBe(first.counts.held)
    expect(first.total).toBeGreaterThanOrEqual(12)
    expect(first).toMatchObject({ page: 1, pageSize: 5, pages: Math.ceil(first.total / 5) })
    const seen: number[] = []
    for (let page = 1; page <= first.pages; page++) {
      const { items } = await loadQueue(t.payload, 'held', page, 5)
      expect(items.length).toBe(page < first.pages ? 5 : first.total - 5 * (first.pages - 1))
      seen.push(...items.map((i) => i.id))
    }
    expect(new Set(seen).size).toBe(first.total)
    const past = await loadQueue(t.payload, 'held', first.pages + 3, 5)
    expect(past.page).toBe(first.pages)
    expect(past.items.map((i) => i.id)).toEqual(seen.slice(5 * (first.pages - 1)))
    // The default page size, and a page number from the address that is not one.
    const { pageFrom, QUEUE_PAGE_SIZE } = await import('../../src/plugins/moderation/queue')
    expect((await loadQueue(t.payload, 'held')).pageSize).toBe(QUEUE_PAGE_SIZE)
    expect([pageFrom('2'), pageFrom('0'), pageFrom('-1'), pageFrom('x'), pageFrom(undefined), pageFrom('1e400')]).toEqual([2, 1, 1, 1, 1, 1])
    await t.payload.delete({ collection: 'replies', where: { body: { like: 'Waiting reply' } } })
  })

  it('mails moderators one daily digest of what waits, each in their language', async () => {
    const { registeredCommands } = await import('../../jobs/commands')
    await t.payload.update({ collection: 'users', id: cast.owner.id, data: { language: 'zh-CN' } as never })
    const digest = registeredCommands(t.payload).schedules.find((s) => s.name === 'moderation-digest')!
    expect(digest.cron).toBe('0 8 * * *')
    const before = inbox.messages.length
    const summary = await digest.run(t.payload, { log: () => {}, progress: () => {} })
    expect(summary).toMatch(/sent to 2 moderator/)
    const mails = await inbox.waitFor(before + 2)
    const digests = mails.slice(before)
    expect(digests.map(recipient).sort()).toEqual(['admin@example.test', 'owner@example.test'])
    const to = (email: string) => digests.find((m) => recipient(m) === email)!
    expect(to('admin@example.test').subject).toMatch(/^\d+ repl(y is|ies are) waiting for moderation$/)
    expect(to('owner@example.test').subject).toMatch(/^\d+ 条回复等待审核$/)
    expect(to('owner@example.test').html).toContain('打开审核队列')
    expect(digests[0]!.html).not.toMatch(/<script/i)
    await t.payload.update({ collection: 'users', id: cast.owner.id, data: { language: null } as never })
  })
})

describe('registration', () => {
  it('refuses a filled honeypot naming the e-mail field; scores a form sent too fast, whose replies are then held', async () => {
    const { formStamp } = await import('../../src/plugins/moderation/registration')
    const browser = new Browser(t.payload, t.databaseName)
    const form = (email: string, extra: Record<string, string>) => ({ email, name: 'Bot', password: 'a long enough secret 42', passwordConfirm: 'a long enough secret 42', ...extra })
    const trapped = await browser.register(form('bot@example.test', { website: 'http://spam.example' }))
    expect(trapped.status).toBe(400)
    expect(JSON.stringify(await trapped.json())).toMatch(/could not create this account/)
    expect((await t.payload.count({ collection: 'users', where: { email: { equals: 'bot@example.test' } } })).totalDocs).toBe(0)

    const hasty = await new Browser(t.payload, t.databaseName).register(form('hasty@example.test', { formStamp: formStamp(t.payload.secret) }))
    expect(hasty.status).toBe(201)
    const user = (await t.payload.find({ collection: 'users', where: { email: { equals: 'hasty@example.test' } }, depth: 0 })).docs[0]!
    expect(user.registrationScore).toBeGreaterThanOrEqual(0.5)
    await setRules(t.payload, { holdFirstReplies: 0 })
    const reply = await post(user, 'Hello everyone')
    expect(reply.status).toBe('held')
    expect((await readAs(cast.admin, reply.id))?.moderationReasons).toContain('suspicious registration')
    await setRules(t.payload)

    const patient = await new Browser(t.payload, t.databaseName).register(form('patient@example.test', { formStamp: formStamp(t.payload.secret, Date.now() - 30_000) }))
    expect(patient.status).toBe(201)
  })
})

describe('bad input', () => {
  it('answers a reply of only invisible characters with a validation error on the body', async () => {
    await expect(post(cast.reader, '\u200B\u200C\u200D\uFEFF\u2060')).rejects.toMatchObject({ status: 400, data: { errors: [{ path: 'body', message: 'A reply cannot be empty.' }] } })
  })

  it('answers a 20 KB reply of spam with a validation error naming the limit, not a 500', async () => {
    const spam = 'BUY CHEAP PILLS NOW https://bit.ly/x '.repeat(560)
    expect(spam.length).toBeGreaterThan(20_000)
    await expect(post(cast.reader, spam)).rejects.toMatchObject({ status: 400, data: { errors: [{ path: 'body' }] } })
  })

  it('a burst of 50 replies from one account over REST: each is stored or refused with 429, none lost, no 500', async () => {
    const burster = await register(t.payload, 'burst@example.test')
    const browser = new Browser(t.payload, t.databaseName)
    const auth = { authorization: `JWT ${await token('burst@example.test')}` }
    const statuses: number[] = []
    for (let i = 0; i < 50; i++) {
      const response = await browser.request('/api/replies', { method: 'POST', json: { article: articleId, body: `Burst number ${i}` }, headers: auth })
      statuses.push(response.status)
    }
    expect(statuses.every((s) => s === 201 || s === 429)).toBe(true)
    const stored = await t.payload.find({ collection: 'replies', where: { author: { equals: burster.id } }, depth: 0, limit: 100 })
    expect(stored.totalDocs).toBe(statuses.filter((s) => s === 201).length)
    // The first is held (a first reply); the rest wait too (posting speed raises the score), and none is public.
    expect(stored.docs.every((r) => r.status !== 'published')).toBe(true)
  })
})

describe('Akismet without a key', () => {
  it('was never asked, about replies over REST or registrations', () => {
    expect(akismet.calls).toEqual([])
  })
})
