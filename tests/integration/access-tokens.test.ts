/**
 * Personal access tokens: shown once, stored hashed, accepted as Bearer and
 * as ?access_token= over REST and GraphQL and by the Local API's auth, with
 * exactly the user's rights and never more than the scope; expiry, revocation,
 * last use; no credential changes and no new tokens by token; logs redacted.
 */
import { Writable } from 'node:stream'

import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { hashSecret } from '../../src/plugins/accessTokens/tokens'
import { poolOf } from '../../src/lib/pool'
import { redactCredentials, redactLogValue } from '../../src/lib/redactCredentials'
import { cli, form, json } from '../helpers/cliClient'
import { graphqlRequest } from './graphql-client'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
let readerJwt: string
let articleId: number

const send = (path: string, init: Parameters<typeof cli>[3] = {}) => cli(t.payload, t.databaseName, path, init)
const bearer = (token: string, init: { headers?: Record<string, string>; body?: BodyInit; method?: string } = {}) => ({
  ...init,
  headers: { ...init.headers, authorization: `Bearer ${token}` },
})
const withJwt = (jwt: string, init: { headers?: Record<string, string>; body?: BodyInit; method?: string } = {}) => ({
  ...init,
  headers: { ...init.headers, authorization: `JWT ${jwt}` },
})

async function createToken(fields: Record<string, unknown>, jwt = readerJwt) {
  const reply = await send('/api/access-tokens', withJwt(jwt, json(fields)))
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body.doc as { id: number; token: string; publicId: string; scope: string }
}

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
  readerJwt = (await t.payload.login({ collection: 'users', data: { email: 'reader@example.test', password: PASSWORD } })).token!
  const article = await t.payload.create({
    collection: 'articles',
    data: { title: 'Tokens', format: 'markdown', markdown: 'x', status: 'published', author: cast.author.id },
  })
  articleId = article.id
})
afterAll(() => t?.destroy())

describe('creating a token', () => {
  it('shows the token once and stores only its hash', async () => {
    const doc = await createToken({ name: 'backup script', scope: 'read' })
    expect(doc.token).toMatch(/^iwt_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/)
    expect(doc).not.toHaveProperty('secretHash')
    const again = await send(`/api/access-tokens/${doc.id}`, withJwt(readerJwt))
    expect(again.status).toBe(200)
    expect(again.body).not.toHaveProperty('token')
    expect(again.body).not.toHaveProperty('secretHash')
    const { rows } = await poolOf(t.payload).query('select secret_hash, public_id, user_id from access_tokens where id = $1', [doc.id])
    expect(rows[0].secret_hash).toBe(hashSecret(doc.token.split('_').slice(2).join('_')))
    expect(JSON.stringify(rows[0])).not.toContain(doc.token.slice(17))
    expect(rows[0].user_id).toBe(cast.reader.id)
  })

  it('ignores a client-chosen owner, hash or public id', async () => {
    const doc = await createToken({ name: 'sneaky', user: cast.owner.id, secretHash: hashSecret('x'), publicId: 'aaaaaaaaaaaa' })
    const stored = await t.payload.findByID({ collection: 'access-tokens', id: doc.id, showHiddenFields: true })
    expect(stored.user).toMatchObject({ id: cast.reader.id })
    expect(stored.publicId).not.toBe('aaaaaaaaaaaa')
    expect(stored.secretHash).not.toBe(hashSecret('x'))
  })

  it('refuses an expiry in the past and a missing name, naming the field', async () => {
    const past = await send('/api/access-tokens', withJwt(readerJwt, json({ name: 'old', expiresAt: '2001-01-01' })))
    expect(past.status).toBe(400)
    expect(past.body.errors[0].message).toMatch(/expiry must be in the future/)
    const nameless = await send('/api/access-tokens', withJwt(readerJwt, json({ scope: 'read' })))
    expect(nameless.status).toBe(400)
    expect(JSON.stringify(nameless.body)).toMatch(/name/i)
  })

  it('is always its creator\'s, even when a user manager names someone else', async () => {
    const ownerJwt = (await t.payload.login({ collection: 'users', data: { email: 'owner@example.test', password: PASSWORD } })).token!
    const doc = await createToken({ name: 'for someone else', user: cast.reader.id }, ownerJwt)
    const stored = await t.payload.findByID({ collection: 'access-tokens', id: doc.id })
    expect(stored.user).toMatchObject({ id: cast.owner.id })
  })

  it('is refused to anonymous visitors', async () => {
    const reply = await send('/api/access-tokens', json({ name: 'x' }))
    expect(reply.status).toBe(403)
  })
})

describe('using a token', () => {
  it('authenticates as its user over Bearer and ?access_token=, and records the last use', async () => {
    const { token, id } = await createToken({ name: 'cli', scope: 'read' })
    for (const [path, init] of [
      ['/api/users/me', bearer(token)],
      [`/api/users/me?access_token=${token}`, {}],
    ] as const) {
      const reply = await send(path, init)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body.user).toMatchObject({ id: cast.reader.id })
      expect(reply.body.strategy).toBe('access-token')
      expect(JSON.stringify(reply.body)).not.toContain(token)
    }
    const stored = await t.payload.findByID({ collection: 'access-tokens', id })
    expect(stored.lastUsedAt).toBeTruthy()
  })

  it('a read token reads but writes nothing, by REST, a custom endpoint or GraphQL', async () => {
    const { token } = await createToken({ name: 'reader', scope: 'read' })
    expect((await send(`/api/articles/${articleId}`, bearer(token))).status).toBe(200)
    const write = await send('/api/replies', bearer(token, form({ article: String(articleId), body: 'hi' })))
    expect(write.status).toBe(403)
    expect(write.body.errors[0].message).toMatch(/read scope/)
    const profile = await send('/api/accounts/profile', bearer(token, json({ name: 'Renamed' })))
    expect(profile.status).toBe(403)
    const graphql = await graphqlRequest(t, `mutation { createReply(data: { article: ${articleId}, body: "hi" }) { id } }`, {
      authorization: `Bearer ${token}`,
    })
    expect(JSON.stringify(graphql.errors)).toMatch(/read scope/)
    expect((await t.payload.count({ collection: 'replies', where: { article: { equals: articleId } } })).totalDocs).toBe(0)
  })

  it("a write token has exactly its user's rights", async () => {
    const { token } = await createToken({ name: 'writer', scope: 'write' })
    const reply = await send('/api/replies', bearer(token, form({ article: String(articleId), body: 'by token' })))
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.doc.author).toMatchObject({ id: cast.reader.id })
    // A reader may not write articles, with or without a token.
    const article = await send('/api/articles', bearer(token, json({ title: 'Nope', format: 'markdown', markdown: 'x' })))
    expect(article.status).toBe(403)
  })

  it('the Local API (the reader site) honours it through payload.auth', async () => {
    const { token } = await createToken({ name: 'site', scope: 'read' })
    const { user } = await t.payload.auth({ headers: new Headers({ authorization: `Bearer ${token}` }) })
    expect(user).toMatchObject({ id: cast.reader.id, _strategy: 'access-token' })
  })

  it('a wrong secret, an expired token and a revoked token authenticate no one', async () => {
    const { token, id } = await createToken({ name: 'soon gone', scope: 'write' })
    const wrong = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    expect((await send('/api/users/me', bearer(wrong))).body.user).toBeNull()

    const expiring = await createToken({ name: 'expiring', scope: 'write', expiresAt: new Date(Date.now() + 60_000).toISOString() })
    await poolOf(t.payload).query(`update access_tokens set expires_at = now() - interval '1 second' where id = $1`, [expiring.id])
    expect((await send('/api/users/me', bearer(expiring.token))).body.user).toBeNull()

    expect((await send(`/api/access-tokens/${id}`, withJwt(readerJwt, { method: 'DELETE' }))).status).toBe(200)
    expect((await send('/api/users/me', bearer(token))).body.user).toBeNull()
  })
})

describe('what a token may never do', () => {
  it('change the password or e-mail (REST, GraphQL, the profile form)', async () => {
    const { token } = await createToken({ name: 'takeover', scope: 'write' })
    const rest = await send(`/api/users/${cast.reader.id}`, bearer(token, { method: 'PATCH', ...json({ password: 'a brand new password', currentPassword: PASSWORD }) }))
    expect(rest.status).toBe(403)
    expect(rest.body.errors[0].message).toMatch(/cannot change the password or the e-mail/)
    const email = await send(`/api/users/${cast.reader.id}`, bearer(token, { method: 'PATCH', ...json({ email: 'evil@example.test', currentPassword: PASSWORD }) }))
    expect(email.status).toBe(403)
    const graphql = await graphqlRequest(t, `mutation { updateUser(id: ${cast.reader.id}, data: { email: "evil@example.test" }) { id } }`, {
      authorization: `Bearer ${token}`,
    })
    expect(JSON.stringify(graphql.errors)).toMatch(/cannot change the password or the e-mail/)
    const profile = await send('/api/accounts/profile', bearer(token, form({ email: 'evil@example.test', currentPassword: PASSWORD })))
    expect(profile.status).toBe(403)
    // The name is not a credential.
    const rename = await send(`/api/users/${cast.reader.id}`, bearer(token, { method: 'PATCH', ...json({ name: 'Renamed by token' }) }))
    expect(rename.status).toBe(200)
    const stored = await t.payload.findByID({ collection: 'users', id: cast.reader.id, showHiddenFields: true })
    expect(stored.email).toBe('reader@example.test')
  })

  it('create, or widen, a token', async () => {
    const { token, id } = await createToken({ name: 'minter', scope: 'write' })
    const create = await send('/api/access-tokens', bearer(token, json({ name: 'child', scope: 'write' })))
    expect(create.status).toBe(403)
    const graphql = await graphqlRequest(t, 'mutation { createAccessToken(data: { name: "child", scope: write }) { id } }', { authorization: `Bearer ${token}` })
    expect(JSON.stringify(graphql.errors)).toMatch(/not allowed/i)
    const widen = await send(`/api/access-tokens/${id}`, bearer(token, { method: 'PATCH', ...json({ name: 'renamed' }) }))
    expect(widen.status).toBe(403)
  })

  it('become a session (refresh)', async () => {
    const { token } = await createToken({ name: 'refresher', scope: 'write' })
    const reply = await send('/api/users/refresh-token', bearer(token, { method: 'POST' }))
    expect(reply.status).toBe(403)
    expect(reply.body.errors[0].message).toMatch(/cannot be exchanged for a session/)
    expect(reply.body.refreshedToken).toBeUndefined()
  })

  it("see another user's tokens", async () => {
    await createToken({ name: 'mine', scope: 'read' })
    const authorJwt = (await t.payload.login({ collection: 'users', data: { email: 'author@example.test', password: PASSWORD } })).token!
    const list = await send('/api/access-tokens', withJwt(authorJwt))
    expect(list.status).toBe(200)
    expect(list.body.docs).toEqual([])
  })
})

describe('log redaction', () => {
  it('removes access_token values and Bearer credentials from strings and error records', () => {
    const line = redactCredentials('GET /api/users/me?depth=0&access_token=iwt_abcdefabcdef_secret123 Authorization: Bearer iwt_abcdefabcdef_x')
    expect(line).toBe('GET /api/users/me?depth=0&access_token=[REDACTED] Authorization: Bearer [REDACTED]')
    const record = redactLogValue({ err: new Error('failed /x?access_token=iwt_abcdefabcdef_s3cr3t'), url: '/y?access_token=abc' }) as any
    expect(record.err.message).toBe('failed /x?access_token=[REDACTED]')
    expect(record.url).toBe('/y?access_token=[REDACTED]')
  })

  it("Payload's logger writes no token", async () => {
    const { token } = await createToken({ name: 'logged', scope: 'read' })
    const lines: string[] = []
    const sink = new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) })
    const logger = pino({ ...(t.payload.config.logger as { options: pino.LoggerOptions }).options, level: 'info' }, sink)
    logger.error({ err: new Error(`request to /api/x?access_token=${token} failed`) }, `GET /api/x?access_token=${token}`)
    logger.info(`presented ${token}`)
    expect(lines.join('')).not.toContain(token.slice(17))
    expect(lines.join('')).toContain('access_token=[REDACTED]')
  })
})
