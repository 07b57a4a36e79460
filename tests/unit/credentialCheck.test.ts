/**
 * The reader site's pre-check of credentials (src/server/credentialCheck.ts):
 * only a credential that cannot sign anyone in is dropped (the page is then
 * the anonymous, cached one); one that verifies is always kept.
 */
import { createHash, createHmac } from 'node:crypto'

import { describe, expect, it } from 'vitest'

import { hashSecret, issueToken, tokenCreated } from '../../src/plugins/accessTokens/tokens'
import { CredentialCheck, jwtVerifies, stripCredentials, type StoredToken } from '../../src/server/credentialCheck'

const SECRET = 'unit-test-secret-0123456789abcdef'
/** What Payload signs with: payload.secret. */
const KEY = createHash('sha256').update(SECRET).digest('hex').slice(0, 32)

function jwt(claims: Record<string, unknown>, key = KEY, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT', authVersion: 1 }) {
  const head = Buffer.from(JSON.stringify(header)).toString('base64url')
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url')
  const signature = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url')
  return `${head}.${body}.${signature}`
}
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600
const valid = () => jwt({ id: 1, collection: 'users', sid: 'abc', exp: inAnHour() })

const request = (headers: Record<string, string | undefined>) => ({ headers: { ...headers } as Record<string, string | undefined> })

describe('jwtVerifies', () => {
  it("accepts Payload's own token and nothing forged, expired, unsigned or malformed", () => {
    expect(jwtVerifies(valid(), KEY)).toBe(true)
    expect(jwtVerifies(jwt({ id: 1, exp: inAnHour() }, 'another-key-entirely-0123456789ab'), KEY)).toBe(false)
    expect(jwtVerifies(jwt({ id: 1, exp: Math.floor(Date.now() / 1000) - 1 }), KEY)).toBe(false)
    expect(jwtVerifies(jwt({ id: 1, exp: inAnHour() }, KEY, { alg: 'none' }), KEY)).toBe(false)
    const [h, b] = valid().split('.')
    expect(jwtVerifies(`${h}.${b}.`, KEY)).toBe(false)
    expect(jwtVerifies(`${h}.${Buffer.from('{"id":2}').toString('base64url')}.${valid().split('.')[2]}`, KEY)).toBe(false)
    for (const junk of ['', 'junk', 'a.b.c', '...', 'x'.repeat(10_000)]) expect(jwtVerifies(junk, KEY)).toBe(false)
  })
})

describe('CredentialCheck', () => {
  it('leaves an anonymous request as it is', async () => {
    const check = new CredentialCheck({ jwtKey: KEY })
    expect(await check.verdict(request({ cookie: 'theme=dark' }))).toBe('anonymous')
    check.close()
  })

  it('drops a junk session cookie, switch cookie or Authorization header, and keeps the other cookies', async () => {
    const check = new CredentialCheck({ jwtKey: KEY })
    for (const headers of [
      { cookie: 'theme=dark; payload-token=junk; inkwell-switch=x.y' },
      { cookie: `theme=dark; payload-token=${jwt({ id: 1, exp: inAnHour() }, 'forged-forged-forged-forged-0000')}` },
      { cookie: `theme=dark; payload-token=${jwt({ id: 1, exp: 1 })}` },
      { cookie: 'theme=dark; inkwell-switch=abc.def' },
      { cookie: 'theme=dark', authorization: 'Bearer junk' },
      { cookie: 'theme=dark', authorization: 'JWT junk' },
      { cookie: 'theme=dark', authorization: 'Basic dXNlcjpwYXNz' },
      { cookie: 'theme=dark', authorization: 'Bearer iwt_short' },
    ]) {
      const req = request(headers)
      expect(await check.anonymize(req as never), JSON.stringify(headers)).toBe(true)
      expect(req.headers).toEqual({ cookie: 'theme=dark' })
    }
    check.close()
  })

  it('keeps a session that verifies (cookie, Bearer or JWT header), even beside junk', async () => {
    const check = new CredentialCheck({ jwtKey: KEY })
    for (const headers of [
      { cookie: `payload-token=${valid()}` },
      { cookie: `a=1; payload-token=${encodeURIComponent(valid())}; inkwell-switch=x` },
      { authorization: `Bearer ${valid()}` },
      { authorization: `JWT ${valid()}` },
      { cookie: 'payload-token=junk', authorization: `Bearer ${valid()}` },
      { cookie: `payload-token=${valid()}`, authorization: 'Bearer junk' },
    ]) {
      const req = request(headers)
      expect(await check.anonymize(req as never), JSON.stringify(headers)).toBe(false)
      expect(req.headers).toEqual(headers)
    }
    check.close()
  })

  it('looks an access token up once: unknown ids are remembered (bounded), known ones checked for secret and expiry', async () => {
    const stored = new Map<string, StoredToken>()
    const lookups: string[] = []
    const check = new CredentialCheck({
      jwtKey: KEY,
      unknownTokens: 2,
      findToken: async (id) => {
        lookups.push(id)
        return stored.get(id)
      },
    })
    const good = issueToken()
    stored.set(good.publicId, { secretHash: good.secretHash, expiresAt: null, userId: 1 })
    const expired = issueToken()
    stored.set(expired.publicId, { secretHash: expired.secretHash, expiresAt: new Date(Date.now() - 1000), userId: 1 })
    const unknown = issueToken()

    expect(await check.verdict(request({ authorization: `Bearer ${good.token}` }))).toBe('verified')
    expect(await check.verdict(request({ authorization: `Bearer ${expired.token}` }))).toBe('junk')
    expect(await check.verdict(request({ authorization: `Bearer iwt_${good.publicId}_${'A'.repeat(43)}` }))).toBe('junk') // wrong secret
    expect(hashSecret('A'.repeat(43))).not.toBe(good.secretHash)

    lookups.length = 0
    for (let i = 0; i < 100; i++) expect(await check.verdict(request({ authorization: `Bearer ${unknown.token}` }))).toBe('junk')
    expect(lookups).toEqual([unknown.publicId]) // one read for a hundred requests

    // Bounded: two more unknown ids push the first out, which is then read again.
    for (const t of [issueToken(), issueToken()]) await check.verdict(request({ authorization: `Bearer ${t.token}` }))
    lookups.length = 0
    await check.verdict(request({ authorization: `Bearer ${unknown.token}` }))
    expect(lookups).toEqual([unknown.publicId])
    check.close()
  })

  it('forgets an unknown id as soon as a token with that id is created', async () => {
    const stored = new Map<string, StoredToken>()
    const check = new CredentialCheck({ jwtKey: KEY, findToken: async (id) => stored.get(id) })
    const later = issueToken()
    expect(await check.verdict(request({ authorization: `Bearer ${later.token}` }))).toBe('junk')
    stored.set(later.publicId, { secretHash: later.secretHash, expiresAt: null, userId: 1 })
    tokenCreated(later.publicId)
    expect(await check.verdict(request({ authorization: `Bearer ${later.token}` }))).toBe('verified')
    check.close()
  })
})

describe('stripCredentials', () => {
  it('removes only the credential cookies', () => {
    const req = request({ cookie: 'payload-token-x=1; payload-token=2; inkwell-switch=3; b=4', authorization: 'Bearer x' })
    stripCredentials(req as never)
    expect(req.headers).toEqual({ cookie: 'payload-token-x=1; b=4' })
  })
})
