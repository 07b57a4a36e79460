/**
 * A site on https with Redis: cookies are Secure, and the per-IP counts live
 * in Redis (PostgreSQL's table stays empty).
 */
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { poolOf } from '../../src/lib/pool'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser, validUser } from './accounts-client'

const SITE = 'https://blog.example'
let t: TestPayload
let redis: Redis
const browser = () => new Browser(t.payload, t.databaseName, undefined, SITE)

beforeAll(async () => {
  t = await createTestPayload({ BASE_URL: SITE, REDIS_URL: 'redis://127.0.0.1:6379' })
  redis = new Redis('redis://127.0.0.1:6379')
})
afterAll(async () => {
  redis?.disconnect()
  await t?.destroy()
})

describe('on https, with Redis', () => {
  it('marks the captcha and session cookies Secure', async () => {
    const b = browser()
    const captcha = await b.request('/api/accounts/captcha')
    expect(captcha.headers.getSetCookie().find((c) => c.startsWith('inkwell-captcha='))).toMatch(/; Secure/)
    const reply = await b.register(validUser('owner@example.test'))
    expect(reply.status).toBe(201)
    expect(reply.headers.getSetCookie().find((c) => c.startsWith('payload-token='))).toMatch(/; Secure/)
    expect((await b.me())?.email).toBe('owner@example.test')
  })

  it('counts attempts per IP in Redis', async () => {
    const b = browser()
    b.ip = `198.51.100.${Math.floor(Math.random() * 250)}`
    await redis.del(`inkwell:rl:login:${b.ip}`)
    await b.login('owner@example.test', 'wrong-password')
    expect(Number(await redis.get(`inkwell:rl:login:${b.ip}`))).toBe(1)
    const { rows } = await poolOf(t.payload).query(`select key from rate_limits where key like '%${b.ip}'`)
    expect(rows).toEqual([])
    await redis.del(`inkwell:rl:login:${b.ip}`)
  })

  it('limits registrations per IP too', async () => {
    const b = browser()
    b.ip = `198.51.100.${Math.floor(Math.random() * 250)}`
    await redis.del(`inkwell:rl:register:${b.ip}`)
    for (let i = 0; i < 10; i++) expect((await b.request('/api/accounts/register', { json: {} })).status).toBe(400)
    expect((await b.request('/api/accounts/register', { json: {} })).status).toBe(429)
    await redis.del(`inkwell:rl:register:${b.ip}`)
  })
})
