/**
 * Issue 16, the Replies rules every path obeys (Local API, REST, GraphQL):
 * readers edit their own replies for 15 minutes and delete them any time;
 * replies answer replies one level deep; the answered reply's author and the
 * article's followers are notified through the queue, followers with a signed
 * one-click unsubscribe (List-Unsubscribe headers) that needs no sign-in.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { queueOf, syncJobsIdle } from '../../jobs/queue'
import { unsubscribeToken, verifyUnsubscribeToken } from '../../src/plugins/notifications/unsubscribe'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { recipient, smtpEnv, startInbox, type Inbox, type ReceivedMail } from '../helpers/smtp'
import { createCast, PASSWORD } from '../helpers/users'
import { graphqlRequest } from './graphql-client'
import { apiErrorOf } from '../../frontend/src/lib/api/errors'

let t: TestPayload
let db: pg.Client
let inbox: Inbox
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number
let otherArticleId: number

type Cast = typeof cast
type Person = Cast[keyof Cast]

beforeAll(async () => {
  inbox = await startInbox()
  t = await createTestPayload({ ...smtpEnv(inbox), QUEUE_CONNECTION: 'sync', BASE_URL: 'http://blog.example.test', SYNC_RETRY_SCALE: '0.05' })
  db = new pg.Client({ connectionString: t.databaseUrl })
  await db.connect()
  cast = await createCast(t.payload)
  const article = (title: string) =>
    t.payload.create({ collection: 'articles', data: { title, format: 'markdown', markdown: 'Body', status: 'published', author: cast.author.id } })
  articleId = (await article('Threads and follows')).id
  otherArticleId = (await article('Another article')).id
})
afterAll(async () => {
  await syncJobsIdle()
  await db?.end()
  await t?.destroy()
  await inbox?.stop()
})

const reply = (user: Person, body: string, extra: Record<string, unknown> = {}) =>
  t.payload.create({ collection: 'replies', data: { article: articleId, body, ...extra }, overrideAccess: false, user })

/** Moves a reply's creation time into the past, as if it had been posted `minutes` ago. */
const age = (id: number, minutes: number) => db.query(`update replies set created_at = now() - make_interval(mins => $2) where id = $1`, [id, minutes])

const tokens = new Map<number, string>()
async function tokenOf(user: Person): Promise<string> {
  const email = Object.entries(EMAILS).find(([role]) => cast[role as keyof Cast].id === user.id)![1]
  if (!tokens.has(user.id)) tokens.set(user.id, (await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })).token!)
  return tokens.get(user.id)!
}
const EMAILS = { owner: 'owner@example.test', admin: 'admin@example.test', author: 'author@example.test', otherAuthor: 'author2@example.test', reader: 'reader@example.test' }

async function rest(user: Person | null, method: string, path: string, json?: unknown) {
  const headers: Record<string, string> = user ? { authorization: `JWT ${await tokenOf(user)}` } : {}
  return new Browser(t.payload, t.databaseName).request(`/api${path}`, { method, json, headers })
}

const gql = async (user: Person, query: string) => graphqlRequest(t, query, { authorization: `JWT ${await tokenOf(user)}` })

/** Mails delivered after `before` whose text mentions `marker`. */
async function mailsAbout(before: number, marker: string, count: number): Promise<ReceivedMail[]> {
  await syncJobsIdle()
  const found = () => inbox.messages.slice(before).filter((m) => m.text?.includes(marker))
  if (found().length < count) await inbox.waitFor(before + count)
  await syncJobsIdle()
  return found()
}

describe('editing one’s own reply within 15 minutes', () => {
  it('lets the writer edit a fresh reply through the Local API, REST and GraphQL, and renders the new text', async () => {
    const mine = await reply(cast.reader, 'First words')
    const local = await t.payload.update({ collection: 'replies', id: mine.id, data: { body: 'Local **edit**' }, overrideAccess: false, user: cast.reader })
    expect(local.html).toContain('<strong>edit</strong>')
    const viaRest = await rest(cast.reader, 'PATCH', `/replies/${mine.id}`, { body: 'REST edit' })
    expect(viaRest.status).toBe(200)
    const viaGraphql = await gql(cast.reader, `mutation { updateReply(id: ${mine.id}, data: { body: "GraphQL edit" }) { body } }`)
    expect(viaGraphql.errors).toBeUndefined()
    expect(viaGraphql.data?.updateReply.body).toBe('GraphQL edit')
  })

  it('refuses the writer’s edit after 15 minutes on every path, and keeps the text', async () => {
    const old = await reply(cast.reader, 'Said and done')
    await age(old.id, 16)
    await expect(
      t.payload.update({ collection: 'replies', id: old.id, data: { body: 'Too late' }, overrideAccess: false, user: cast.reader }),
    ).rejects.toThrow()
    expect((await rest(cast.reader, 'PATCH', `/replies/${old.id}`, { body: 'Too late' })).status).toBe(403)
    const viaGraphql = await gql(cast.reader, `mutation { updateReply(id: ${old.id}, data: { body: "Too late" }) { body } }`)
    expect(viaGraphql.errors?.[0]?.message).toMatch(/not allowed/i)
    // A bulk update by query is filtered by the same rule: it touches nothing.
    const bulk = await t.payload.update({ collection: 'replies', where: { id: { equals: old.id } }, data: { body: 'Too late' }, overrideAccess: false, user: cast.reader })
    expect(bulk.docs).toHaveLength(0)
    expect((await t.payload.findByID({ collection: 'replies', id: old.id })).body).toBe('Said and done')
  })

  it('edits at 14 minutes, and still lets a moderator (replies.update.any) edit an old reply', async () => {
    const recent = await reply(cast.reader, 'Almost late')
    await age(recent.id, 14)
    expect((await rest(cast.reader, 'PATCH', `/replies/${recent.id}`, { body: 'Just in time' })).status).toBe(200)
    await age(recent.id, 60)
    expect((await rest(cast.admin, 'PATCH', `/replies/${recent.id}`, { body: 'Moderated' })).status).toBe(200)
  })

  it('never lets anyone else edit a reply, however fresh', async () => {
    const theirs = await reply(cast.reader, 'Mine alone')
    expect((await rest(cast.otherAuthor, 'PATCH', `/replies/${theirs.id}`, { body: 'Hijacked' })).status).toBe(403)
    expect((await rest(null, 'PATCH', `/replies/${theirs.id}`, { body: 'Hijacked' })).status).toBe(403)
    const viaGraphql = await gql(cast.otherAuthor, `mutation { updateReply(id: ${theirs.id}, data: { body: "Hijacked" }) { body } }`)
    expect(viaGraphql.errors?.[0]?.message).toMatch(/not allowed/i)
    expect((await t.payload.findByID({ collection: 'replies', id: theirs.id })).body).toBe('Mine alone')
  })
})

describe('deleting one’s own reply at any time', () => {
  it('deletes an old reply of one’s own over REST and GraphQL, and recounts the article’s replies', async () => {
    const a = await reply(cast.reader, 'Old one')
    const b = await reply(cast.reader, 'Another old one')
    await age(a.id, 60 * 24 * 30)
    await age(b.id, 60 * 24 * 30)
    expect((await rest(cast.reader, 'DELETE', `/replies/${a.id}`)).status).toBe(200)
    const viaGraphql = await gql(cast.reader, `mutation { deleteReply(id: ${b.id}) { id } }`)
    expect(viaGraphql.errors).toBeUndefined()
    const { totalDocs } = await t.payload.count({ collection: 'replies', where: { article: { equals: articleId } } })
    expect((await t.payload.findByID({ collection: 'articles', id: articleId })).replyCount).toBe(totalDocs)
  })

  it('refuses to delete someone else’s reply', async () => {
    const theirs = await reply(cast.reader, 'Keep me')
    expect((await rest(cast.otherAuthor, 'DELETE', `/replies/${theirs.id}`)).status).toBe(403)
    const viaGraphql = await gql(cast.otherAuthor, `mutation { deleteReply(id: ${theirs.id}) { id } }`)
    expect(viaGraphql.errors?.[0]?.message).toMatch(/not allowed/i)
    expect(await t.payload.findByID({ collection: 'replies', id: theirs.id, disableErrors: true })).not.toBeNull()
  })
})

describe('one level of threading', () => {
  it('files an answer to an answer under the top-level reply', async () => {
    const top = await reply(cast.reader, 'Top-level')
    const answer = await reply(cast.otherAuthor, 'An answer', { parent: top.id })
    const answerToAnswer = await reply(cast.admin, 'An answer to the answer', { parent: answer.id })
    expect(answer.parent).toMatchObject({ id: top.id })
    expect(answerToAnswer.parent).toMatchObject({ id: top.id })
    const viaRest = await rest(cast.reader, 'POST', '/replies', { article: articleId, body: 'Over REST', parent: answer.id })
    expect(viaRest.status).toBe(201)
    expect((await viaRest.json()).doc.parent).toMatchObject({ id: top.id })
  })

  it('refuses a parent on another article with a 400 naming the field, storing nothing', async () => {
    const elsewhere = await t.payload.create({ collection: 'replies', data: { article: otherArticleId, body: 'Elsewhere' }, overrideAccess: false, user: cast.reader })
    const before = (await t.payload.count({ collection: 'replies' })).totalDocs
    const response = await rest(cast.reader, 'POST', '/replies', { article: articleId, body: 'Cross-thread', parent: elsewhere.id })
    expect(response.status).toBe(400)
    expect(JSON.stringify(await response.json())).toMatch(/parent.*same article|same article.*parent/i)
    const viaGraphql = await gql(cast.reader, `mutation { createReply(data: { article: ${articleId}, body: "Cross", parent: ${elsewhere.id} }) { id } }`)
    expect(viaGraphql.errors?.[0]?.message).toMatch(/invalid|parent/i)
    expect((await t.payload.count({ collection: 'replies' })).totalDocs).toBe(before)
  })

  it('never moves a reply to another thread afterwards', async () => {
    const top = await reply(cast.reader, 'Thread one')
    const other = await reply(cast.reader, 'Thread two')
    const answer = await reply(cast.reader, 'In thread one', { parent: top.id })
    await rest(cast.reader, 'PATCH', `/replies/${answer.id}`, { parent: other.id, body: 'Still in thread one' })
    const stored = await t.payload.findByID({ collection: 'replies', id: answer.id, depth: 0 })
    expect(stored.parent).toBe(top.id)
  })

  it('leaves the answers as top-level replies when their parent is deleted', async () => {
    const top = await reply(cast.reader, 'Soon gone')
    const answer = await reply(cast.otherAuthor, 'Stays', { parent: top.id })
    await rest(cast.reader, 'DELETE', `/replies/${top.id}`)
    expect((await t.payload.findByID({ collection: 'replies', id: answer.id, depth: 0 })).parent ?? null).toBeNull()
  })
})

describe('notifications for answers and follows', () => {
  it('tells the answered reply’s author and the article’s author, once each, with plain-text snippets', async () => {
    const top = await reply(cast.reader, 'A question for the author')
    await syncJobsIdle()
    const before = inbox.messages.length
    const answer = await reply(cast.otherAuthor, 'Here is **my answer**:\n\n```js\nconsole.log(1)\n```\n\nHope it helps.', { parent: top.id })
    const mails = await mailsAbout(before, 'my answer', 2)
    expect(mails.map(recipient).sort()).toEqual(['author@example.test', 'reader@example.test'])
    const toReader = mails.find((m) => recipient(m) === 'reader@example.test')!
    expect(toReader.subject).toContain('answered your reply')
    expect(toReader.text).toContain('Here is my answer: Hope it helps.')
    expect(toReader.text).not.toMatch(/\*\*|```|console\.log/)
    const kinds = await t.payload.find({ collection: 'notifications', where: { reply: { equals: answer.id } } })
    expect(kinds.docs.map((n) => [n.kind, (n.recipient as { id: number }).id]).sort()).toEqual([
      ['answer', cast.reader.id],
      ['reply', cast.author.id],
    ])
  })

  it('tells the author of the answered answer, not the top-level reply’s, and the article’s author, once each', async () => {
    const top = await reply(cast.reader, 'Top-level question')
    const answer = await reply(cast.otherAuthor, 'An answer in the thread', { parent: top.id })
    await syncJobsIdle()
    const before = inbox.messages.length
    const answerToAnswer = await reply(cast.admin, 'Answering the answer, marker-aa', { parent: answer.id })
    expect(answerToAnswer.parent).toMatchObject({ id: top.id })
    const mails = await mailsAbout(before, 'marker-aa', 2)
    expect(mails.map(recipient).sort()).toEqual(['author2@example.test', 'author@example.test'])
    expect(mails.find((m) => recipient(m) === 'author2@example.test')!.subject).toContain('answered your reply')
    const kinds = await t.payload.find({ collection: 'notifications', where: { reply: { equals: answerToAnswer.id } }, depth: 0 })
    expect(kinds.docs.map((n) => [n.kind, n.recipient]).sort()).toEqual([
      ['answer', cast.otherAuthor.id],
      ['reply', cast.author.id],
    ])
  })

  it('lets a reader follow an article, mails them each new reply with List-Unsubscribe headers, and not their own', async () => {
    const follow = await rest(cast.admin, 'POST', '/follows', { article: articleId })
    expect(follow.status).toBe(201)
    const followId = (await follow.json()).doc.id as number
    // Following twice is refused by the unique index, not stored twice.
    expect((await rest(cast.admin, 'POST', '/follows', { article: articleId })).status).toBe(400)

    const before = inbox.messages.length
    await reply(cast.reader, 'News for followers')
    const mails = await mailsAbout(before, 'News for followers', 2)
    const toFollower = mails.find((m) => recipient(m) === 'admin@example.test')!
    expect(toFollower.subject).toBe('New reply on “Threads and follows”')
    const header = (name: string) => toFollower.headers.find((h) => h.key === name)?.value
    const oneClick = `http://blog.example.test/api/follows/unsubscribe?token=${unsubscribeToken(t.payload, followId)}`
    expect(header('list-unsubscribe')).toContain(`<${oneClick}>`)
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(toFollower.text).toContain(`http://blog.example.test/unsubscribe?token=${unsubscribeToken(t.payload, followId)}`)

    // The follower's own reply mails nobody about itself, not even them.
    const own = inbox.messages.length
    await reply(cast.admin, 'My own reply as a follower')
    await mailsAbout(own, 'My own reply as a follower', 1) // the article's author
    expect(inbox.messages.slice(own).filter((m) => recipient(m) === 'admin@example.test')).toEqual([])
  })

  it('retries a failed follower mail and sends it exactly once when the mail server is back', async () => {
    await inbox.stop()
    const before = inbox.messages.length
    const events = queueOf(t.payload).events
    const threadJobFailed = new Promise<unknown>((resolve) => {
      const onRetry = (failure: { name: string }) => {
        if (failure.name !== 'notify-reply-thread') return
        events.off('retry', onRetry)
        resolve(failure)
      }
      events.on('retry', onRetry)
    })
    const created = await reply(cast.otherAuthor, 'Sent during an outage')
    expect(await t.payload.findByID({ collection: 'replies', id: created.id })).toBeTruthy() // the reply is kept
    // The first try fails on the closed port; a retry delivers once the server is back.
    expect(await threadJobFailed).toMatchObject({ name: 'notify-reply-thread', attempt: 1 })
    await inbox.start()
    const mails = await mailsAbout(before, 'Sent during an outage', 2)
    expect(mails.filter((m) => recipient(m) === 'admin@example.test')).toHaveLength(1)
  })

  it('keeps follows private, and stamps the follower with the signed-in reader', async () => {
    const mine = await rest(cast.reader, 'POST', '/follows', { article: articleId, follower: cast.otherAuthor.id })
    expect(mine.status).toBe(201)
    expect((await mine.json()).doc.follower).toMatchObject({ id: cast.reader.id })
    const seen = await rest(cast.otherAuthor, 'GET', '/follows')
    expect((await seen.json()).docs).toEqual([])
    expect((await rest(null, 'POST', '/follows', { article: articleId })).status).toBe(403)
    const draft = await t.payload.create({ collection: 'articles', data: { title: 'Draft', format: 'markdown', markdown: 'x', status: 'draft', author: cast.author.id } })
    const onDraft = await rest(cast.reader, 'POST', '/follows', { article: draft.id })
    expect(onDraft.status).toBe(400)
    expect(JSON.stringify(await onDraft.json())).toContain('You can only follow a published article')
  })
})

describe('one-click unsubscribe', () => {
  it('ends the follow from the signed link without signing in, answers the same when repeated, and mails no more', async () => {
    const follow = await t.payload.create({ collection: 'follows', data: { article: articleId, follower: cast.otherAuthor.id }, overrideAccess: true })
    const token = unsubscribeToken(t.payload, follow.id)
    const oneClick = () =>
      new Browser(t.payload, t.databaseName).request(`/api/follows/unsubscribe?token=${token}`, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        origin: null,
      })
    expect((await oneClick()).status).toBe(200)
    expect(await t.payload.findByID({ collection: 'follows', id: follow.id, disableErrors: true })).toBeNull()
    expect((await oneClick()).status).toBe(200)

    const before = inbox.messages.length
    await reply(cast.reader, 'After unsubscribing')
    await mailsAbout(before, 'After unsubscribing', 2) // the article's author and the remaining follower
    expect(inbox.messages.slice(before).filter((m) => recipient(m) === 'author2@example.test')).toEqual([])
  })

  it('refuses a forged or altered token with a 400 naming it, and ends nothing', async () => {
    const follow = await t.payload.create({ collection: 'follows', data: { article: otherArticleId, follower: cast.reader.id }, overrideAccess: true })
    const [, signature] = unsubscribeToken(t.payload, follow.id).split('.')
    const otherId = follow.id + 1000
    for (const token of [`${otherId}.${signature}`, `${follow.id}.AAAA`, 'nonsense', '', `${follow.id}.${signature}.x`]) {
      expect(verifyUnsubscribeToken(t.payload, token)).toBeNull()
      const response = await new Browser(t.payload, t.databaseName).request(`/api/follows/unsubscribe?token=${encodeURIComponent(token)}`, { method: 'POST', body: '' })
      expect(response.status).toBe(400)
      expect(apiErrorOf(await response.json()).fields.token).toMatch(/not valid/)
    }
    expect(await t.payload.findByID({ collection: 'follows', id: follow.id, disableErrors: true })).not.toBeNull()
  })
})
