/** The small pure parts of the command-line API: body fields, the access_token parameter, redaction, image negotiation. */
import type { IncomingMessage } from 'node:http'

import { describe, expect, it } from 'vitest'

import { parseToken, presentedToken, issueToken, secretMatches } from '../../src/plugins/accessTokens/tokens'
import { redactCredentials } from '../../src/lib/redactCredentials'
import { fieldsOf, normalizeRequestBody } from '../../src/lib/requestBody'
import { negotiateCardType, parseCardRequest } from '../../src/plugins/content/shareCard'
import { moveAccessTokenToHeader } from '../../src/server/accessTokenParameter'

const incoming = (url: string, headers: Record<string, string> = {}) => ({ url, headers }) as unknown as IncomingMessage

describe('fieldsOf', () => {
  it('makes lists of repeated keys and key[] and skips reserved names', () => {
    expect(fieldsOf(new URLSearchParams('a=1&tags[]=x&tags[]=y&b=2&b=3&depth=1'), new Set(['depth']))).toEqual({
      a: '1',
      tags: ['x', 'y'],
      b: ['2', '3'],
    })
  })
})

describe('normalizeRequestBody', () => {
  it('turns a query-only POST into JSON, keeping Payload options in the query', async () => {
    const out = (await normalizeRequestBody(new Request('http://x/api/replies?article=1&body=hi&depth=0&access_token=t', { method: 'POST' }))) as Request
    expect(out.headers.get('content-type')).toBe('application/json')
    expect(await out.json()).toEqual({ article: '1', body: 'hi' })
    expect(new URL(out.url).searchParams.get('depth')).toBe('0')
  })

  it('leaves GET and other media types alone', async () => {
    const get = new Request('http://x/api/replies?a=1')
    expect(await normalizeRequestBody(get)).toBe(get)
    const xml = new Request('http://x/api/replies', { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<a/>' })
    expect(await normalizeRequestBody(xml)).toBe(xml)
  })
})

describe('access tokens', () => {
  it('issues tokens whose secret matches only its own hash', () => {
    const issued = issueToken()
    const parsed = parseToken(issued.token)!
    expect(parsed.publicId).toBe(issued.publicId)
    expect(secretMatches(parsed.secret, issued.secretHash)).toBe(true)
    expect(secretMatches(issueToken().secret, issued.secretHash)).toBe(false)
    expect(parseToken('iwt_short_x')).toBeUndefined()
  })

  it('reads Bearer iwt_ tokens and the access_token parameter, not Payload JWTs', () => {
    const { token } = issueToken()
    expect(presentedToken(new Headers({ authorization: `Bearer ${token}` }))).toBe(token)
    expect(presentedToken(new Headers({ authorization: 'Bearer eyJhbGciOi.x.y' }))).toBeUndefined()
    expect(presentedToken(new Headers(), `/api/users/me?access_token=${token}`)).toBe(token)
  })

  it('moves ?access_token= into the Authorization header and out of the URL; a header already sent wins', () => {
    const req = incoming('/api/users/me?depth=1&access_token=iwt_abc&x=2')
    moveAccessTokenToHeader(req)
    expect(req.url).toBe('/api/users/me?depth=1&x=2')
    expect(req.headers.authorization).toBe('Bearer iwt_abc')
    const only = incoming('/api/x?access_token=iwt_abc', { authorization: 'JWT mine' })
    moveAccessTokenToHeader(only)
    expect(only.url).toBe('/api/x')
    expect(only.headers.authorization).toBe('JWT mine')
  })

  it('redacts every form of the credential', () => {
    expect(redactCredentials('url=/a?access_token=iwt_x&b=1 auth=JWT abc.def token iwt_abcdefabcdef_AAAA')).toBe(
      'url=/a?access_token=[REDACTED]&b=1 auth=JWT [REDACTED] token iwt_[REDACTED]',
    )
  })
})

describe('share card requests', () => {
  it('negotiates the image type from Accept, and refuses JSON-only clients', () => {
    expect(negotiateCardType('image/webp')).toBe('image/webp')
    expect(negotiateCardType('image/jpeg;q=0.5, image/webp;q=0.9')).toBe('image/webp')
    expect(negotiateCardType('*/*')).toBe('image/png')
    expect(negotiateCardType(null)).toBe('image/png')
    expect(negotiateCardType('application/json')).toBeUndefined()
    expect(negotiateCardType('image/png;q=0')).toBeUndefined()
  })

  it('validates width and theme, from JSON numbers or query strings', () => {
    expect(parseCardRequest({ width: '800', theme: 'dark' })).toEqual({ value: { width: 800, theme: 'dark' } })
    expect(parseCardRequest({})).toEqual({ value: { width: 1200, theme: 'light' } })
    expect(parseCardRequest({ width: 199 })).toHaveProperty('errors.width')
    expect(parseCardRequest({ theme: 'DARK' })).toHaveProperty('errors.theme')
  })
})
