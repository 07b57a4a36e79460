/**
 * Akismet as moderation's second opinion (issue 29), against a loopback fake
 * of its API (tests/helpers/akismetServer.ts), on a real database,
 * QUEUE_CONNECTION=sync: replies posted over REST are checked with the
 * visitor's address and browser; spam weighs, ham leans; Akismet refusing
 * connections or never answering leaves the local decision, quickly; the
 * moderation queue's approve and spam are reported back; registrations are
 * checked too. (Without a key nothing is sent: tests/integration/moderation.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { queueOf, syncJobsIdle } from '../../jobs/queue'
import { startAkismetServer, type AkismetServer } from '../helpers/akismetServer'
import { writeArticle } from '../helpers/articles'
import { setRules } from '../helpers/moderation'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD, register } from '../helpers/users'

const TIMEOUT_MS = 400
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) FakeBrowser/1.0'

let t: TestPayload
let akismet: AkismetServer
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number

beforeAll(async () => {
  akismet = await startAkismetServer()
  t = await createTestPayload({
    QUEUE_CONNECTION: 'sync',
    AKISMET_KEY: akismet.key,
    AKISMET_ENDPOINT: akismet.url,
    AKISMET_TIMEOUT_MS: String(TIMEOUT_MS),
    REPLY_RATE_LIMIT: '1000',
    LOG_LEVEL: 'fatal',
  })
  cast = await createCast(t.payload)
  articleId = (await writeArticle(t.payload, cast.author, 'Second opinions')).id
  // First replies are not held here: what is held is held for Akismet's (or the score's) sake.
  await setRules(t.payload, { holdFirstReplies: 0 })
})
afterAll(async () => {
  await syncJobsIdle()
  await t?.destroy()
  await akismet?.stop()
})

type Posted = { id: number; status: string; elapsedMs: number }

/** A new reader posts one reply over REST, as the reader site's form does (address and browser included). */
async function postAsNewReader(email: string, body: string): Promise<Posted & { browser: Browser }> {
  await register(t.payload, email)
  const browser = new Browser(t.payload, t.databaseName)
  const login = await browser.login(email, PASSWORD)
  expect(login.status).toBe(200)
  const started = performance.now()
  const response = await browser.request('/api/replies', { json: { article: articleId, body }, headers: { 'user-agent': USER_AGENT } })
  const elapsedMs = performance.now() - started
  expect(response.status).toBe(201)
  const { doc } = await response.json()
  return { id: doc.id, status: doc.status, elapsedMs, browser }
}

const reasonsOf = async (id: number) => (await t.payload.findByID({ collection: 'replies', id, depth: 0 })).moderationReasons as string[]

/** A moderator's decision through the moderation queue's endpoint; its report to Akismet is a job run after the commit. */
async function moderate(action: 'approve' | 'spam', id: number) {
  const token = (await t.payload.login({ collection: 'users', data: { email: 'admin@example.test', password: PASSWORD } })).token!
  const done = await new Browser(t.payload, t.databaseName).request('/api/moderation/replies', {
    json: { action, ids: [id] },
    headers: { authorization: `JWT ${token}`, accept: 'application/json' },
  })
  expect(done.status).toBe(200)
}

describe('a reply checked by Akismet', () => {
  let spamReply: Posted & { browser: Browser }
  let hamReply: Posted

  it('sends the writer’s address, browser, text, name, e-mail and the permalink; Akismet’s spam holds the reply', async () => {
    akismet.mode = 'spam'
    spamReply = await postAsNewReader('spammy@example.test', 'Great article, very informative.')
    expect(['held', 'spam']).toContain(spamReply.status)
    expect(await reasonsOf(spamReply.id)).toContain('Akismet: spam')
    const check = akismet.callsTo('comment-check').at(-1)!
    expect(check.form).toMatchObject({
      api_key: akismet.key,
      blog: 'http://localhost:3000',
      user_ip: spamReply.browser.ip,
      user_agent: USER_AGENT,
      comment_type: 'comment',
      comment_content: 'Great article, very informative.',
      comment_author_email: 'spammy@example.test',
      permalink: `http://localhost:3000/articles/${articleId}`,
    })
    expect(check.form.comment_author).toBeTruthy()
  })

  it('treats the "discard" pro-tip as spam (the client reads only true/false)', async () => {
    akismet.mode = 'discard'
    const reply = await postAsNewReader('discard@example.test', 'Great article, very informative indeed.')
    expect(['held', 'spam']).toContain(reply.status)
    expect(await reasonsOf(reply.id)).toContain('Akismet: spam')
  })

  it('leaves a reply Akismet calls ham as the local rules decide', async () => {
    akismet.mode = 'ham'
    hamReply = await postAsNewReader('genuine@example.test', 'I tried this on my own blog and it worked.')
    expect(hamReply.status).toBe('published')
    expect(await reasonsOf(hamReply.id)).toContain('Akismet: not spam')
    // The local rules still hold what they hold: three links.
    const linky = await postAsNewReader('linky@example.test', 'See https://a.example, https://b.example and https://c.example')
    expect(linky.status).toBe('held')
  })

  it('posts quickly with the local decision when Akismet refuses connections', async () => {
    await akismet.down()
    try {
      const reply = await postAsNewReader('while-down@example.test', 'Posting while the second opinion is away.')
      expect(reply.status).toBe('published')
      expect(await reasonsOf(reply.id)).toContain('Akismet unavailable')
      expect(reply.elapsedMs).toBeLessThan(TIMEOUT_MS + 3000)
    } finally {
      await akismet.up()
    }
  })

  it('posts within the time limit with the local decision when Akismet never answers, or answers with an error', async () => {
    akismet.mode = 'slow'
    const before = akismet.callsTo('comment-check').length
    const slow = await postAsNewReader('while-slow@example.test', 'Posting while the second opinion is slow.')
    expect(akismet.callsTo('comment-check').length).toBe(before + 1) // it was asked, and not waited for
    expect(slow.status).toBe('published')
    expect(await reasonsOf(slow.id)).toContain('Akismet unavailable')
    expect(slow.elapsedMs).toBeLessThan(TIMEOUT_MS + 3000)

    akismet.mode = 'error'
    const failing = await postAsNewReader('while-failing@example.test', 'Posting while the second opinion errs.')
    expect(failing.status).toBe('published')
    expect(await reasonsOf(failing.id)).toContain('Akismet unavailable')
    akismet.mode = 'ham'
  })

  it('asks nothing about a trusted writer’s reply, nor one made through the Local API (no visitor to describe)', async () => {
    const before = akismet.calls.length
    const trusted = await t.payload.create({ collection: 'replies', data: { article: articleId, body: 'From the author' }, overrideAccess: false, user: cast.author })
    expect(trusted.status).toBe('published')
    const local = await t.payload.create({ collection: 'replies', data: { article: articleId, body: 'From a script' }, overrideAccess: false, user: cast.reader })
    expect(local.status).toBe('published')
    expect(akismet.calls.length).toBe(before)
  })

  it('reports a moderator’s approval as ham and marking spam as spam, with the facts of the check', async () => {
    await moderate('approve', spamReply.id)
    await syncJobsIdle()
    const ham = akismet.callsTo('submit-ham')
    expect(ham).toHaveLength(1)
    expect(ham[0]!.form).toMatchObject({
      api_key: akismet.key,
      user_ip: spamReply.browser.ip,
      user_agent: USER_AGENT,
      comment_content: 'Great article, very informative.',
      comment_author_email: 'spammy@example.test',
      permalink: `http://localhost:3000/articles/${articleId}`,
    })

    await moderate('spam', hamReply.id)
    await syncJobsIdle()
    const spam = akismet.callsTo('submit-spam')
    expect(spam).toHaveLength(1)
    expect(spam[0]!.form).toMatchObject({ comment_content: 'I tried this on my own blog and it worked.', comment_author_email: 'genuine@example.test' })
  })

  it('does not fail a moderator’s decision when reporting it fails (the job retries in the background)', async () => {
    akismet.mode = 'spam'
    const reply = await postAsNewReader('later-approved@example.test', 'Another fine article.')
    expect(reply.status).not.toBe('published')
    const failedOnce = new Promise<string>((resolve) => queueOf(t.payload).events.once('retry', ({ name }) => resolve(name)))
    await akismet.down()
    try {
      await moderate('approve', reply.id)
      expect((await t.payload.findByID({ collection: 'replies', id: reply.id, depth: 0 })).status).toBe('published')
      // The report, after the commit, found Akismet down and is waiting to try again.
      expect(await failedOnce).toBe('akismet-report')
    } finally {
      await akismet.up()
    }
    // Back up, the job's retry gets through.
    await syncJobsIdle()
    expect(akismet.callsTo('submit-ham').map((c) => c.form.comment_content)).toContain('Another fine article.')
  })
})

describe('a registration checked by Akismet', () => {
  it('asks about the sign-up; Akismet’s spam marks the account, whose replies are then held', async () => {
    const { formStamp } = await import('../../src/plugins/moderation/registration')
    akismet.mode = 'spam'
    const browser = new Browser(t.payload, t.databaseName)
    const registered = await browser.register({
      email: 'signup-spam@example.test',
      name: 'Signup',
      password: 'a long enough secret 42',
      passwordConfirm: 'a long enough secret 42',
      formStamp: formStamp(t.payload.secret, Date.now() - 30_000),
    })
    expect(registered.status).toBe(201)
    expect(akismet.callsTo('comment-check').at(-1)!.form).toMatchObject({ comment_type: 'signup', comment_author_email: 'signup-spam@example.test', user_ip: browser.ip })
    const user = (await t.payload.find({ collection: 'users', where: { email: { equals: 'signup-spam@example.test' } }, depth: 0 })).docs[0]!
    expect(user.registrationScore).toBeGreaterThanOrEqual(0.5)
    akismet.mode = 'ham'
  })
})

describe('the test setup', () => {
  it('reached the fake only: every call carried the key', () => {
    expect(akismet.calls.length).toBeGreaterThan(0)
    expect(akismet.calls.every((c) => c.form.api_key === akismet.key)).toBe(true)
  })
})
