/**
 * Issue 9 item 5: login, lockout, registration and password-forgot answer
 * alike, in status, body and time, for an address that has an account and
 * one that has none. Times are compared by their medians over 20 tries each,
 * the two kinds interleaved so that load on the machine hits both alike.
 * Registration runs with REGISTER_VERIFY_EMAIL=true: with instant sign-in a
 * new account necessarily answers differently (it gets a session).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { readHiddenAuthFields } from '../../src/lib/pool'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { graphqlRequest } from './graphql-client'
import { Browser, validUser } from './accounts-client'
import { Mailbox } from './accounts-mailbox'

let t: TestPayload
const mailbox = new Mailbox()
// A fresh address per browser, so the per-IP limits never answer instead of the form.
const browser = () => new Browser(t.payload, t.databaseName, `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`)
const TRIES = 20
const randomIp = () => `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`

type Answer = { status: number; body: string; ms: number }

async function timed(send: () => Promise<{ status: number; text: () => Promise<string> }>): Promise<Answer> {
  const started = performance.now()
  const reply = await send()
  const ms = performance.now() - started
  return { status: reply.status, body: await reply.text(), ms }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2
}

/** Runs both kinds TRIES times, interleaved; returns each kind's answers. */
async function compare(existing: (i: number) => Promise<Answer>, unknown: (i: number) => Promise<Answer>) {
  const a: Answer[] = []
  const b: Answer[] = []
  for (let i = 0; i < TRIES; i++) {
    a.push(await existing(i))
    b.push(await unknown(i))
  }
  return { existing: a, unknown: b }
}

/** Same statuses, same bodies (after `normalise`), and medians within max(25 ms, 40 % of the faster) of each other. */
function expectAlike(result: { existing: Answer[]; unknown: Answer[] }, normalise: (body: string) => string = (b) => b) {
  const shape = (answers: Answer[]) => [...new Set(answers.map((x) => `${x.status} ${normalise(x.body)}`))]
  expect(shape(result.existing)).toEqual(shape(result.unknown))
  expect(shape(result.existing)).toHaveLength(1)
  const [m1, m2] = [median(result.existing.map((x) => x.ms)), median(result.unknown.map((x) => x.ms))]
  // The slower median may exceed the faster by 40 % (a shared, busy machine); without the equalising
  // hash an unknown address answers in about half the time of a real account's wrong password.
  const tolerance = Math.max(25, 0.4 * Math.min(m1, m2))
  expect(Math.abs(m1 - m2), `medians ${m1.toFixed(1)} ms (existing) vs ${m2.toFixed(1)} ms (unknown)`).toBeLessThanOrEqual(tolerance)
}

beforeAll(async () => {
  const port = await mailbox.listen()
  t = await createTestPayload({ MAIL_DRIVER: 'smtp', MAIL_HOST: '127.0.0.1', MAIL_PORT: String(port), REGISTER_VERIFY_EMAIL: 'true' })
  for (const email of ['owner@example.test', 'member@example.test', 'locked@example.test']) {
    await t.payload.create({ collection: 'users', data: { ...validUser(email) } as never })
  }
}, 120_000)
afterAll(async () => {
  await t?.destroy()
  await mailbox.close()
})

describe('no account enumeration', () => {
  it('login: a wrong password for an account and any password for an unknown address', async () => {
    const result = await compare(
      () => timed(() => browser().login('member@example.test', 'not-the-password')),
      (i) => timed(() => browser().login(`nobody-${i}@example.test`, 'not-the-password')),
    )
    expect(result.existing[0]!.status).toBe(401)
    expectAlike(result)
  }, 240_000)

  it('lockout: a locked account answers as an unknown address does', async () => {
    for (let i = 0; i < 5; i++) await browser().login('locked@example.test', `wrong-${i}`)
    const stored = await readHiddenAuthFields(t.payload, { email: 'locked@example.test' })
    expect(stored?.lockUntil).toBeTruthy()
    const result = await compare(
      () => timed(() => browser().login('locked@example.test', validUser('x').password)),
      (i) => timed(() => browser().login(`nobody-else-${i}@example.test`, validUser('x').password)),
    )
    expectAlike(result)
    // Over Payload's REST login too, "locked" is not said.
    const rest = await browser().request('/api/users/login', { json: { email: 'locked@example.test', password: 'whatever-it-is' } })
    const restUnknown = await browser().request('/api/users/login', { json: { email: 'nobody@example.test', password: 'whatever-it-is' } })
    expect([rest.status, await rest.text()]).toEqual([restUnknown.status, await restUnknown.text()])
  }, 240_000)

  it('lockout over GraphQL loginUser and the Local API: a locked account answers as an unknown address does (issue 27 item 1)', async () => {
    await t.payload.create({ collection: 'users', data: { ...validUser('locked-gql@example.test') } as never })
    const loginUser = (email: string) => async () => {
      const reply = await graphqlRequest(t, `mutation { loginUser(email: "${email}", password: "analytical-engine") { token } }`, { 'x-forwarded-for': randomIp() })
      return { status: reply.status, text: async () => JSON.stringify({ data: reply.data, errors: reply.errors }) }
    }
    for (let i = 0; i < 5; i++) await graphqlRequest(t, `mutation { loginUser(email: "locked-gql@example.test", password: "wrong-${i}") { token } }`, { 'x-forwarded-for': randomIp() })
    const stored = await readHiddenAuthFields(t.payload, { email: 'locked-gql@example.test' })
    expect(stored?.lockUntil).toBeTruthy()
    const result = await compare(
      () => timed(loginUser('locked-gql@example.test')),
      (i) => timed(loginUser(`nobody-gql-${i}@example.test`)),
    )
    expect(result.existing[0]!.body).toMatch(/incorrect/)
    expectAlike(result, (body) => body.replace(/nobody-gql-\d+@example\.test|locked-gql@example\.test/g, '<address>'))
    // The Local API throws the very error an unknown address gets (same class, so the same name in any answer).
    const thrown = async (email: string) =>
      t.payload.login({ collection: 'users', data: { email, password: 'analytical-engine' } }).then(
        () => undefined,
        (error: Error & { status?: number }) => [error.name, error.constructor.name, error.status, error.message],
      )
    expect(await thrown('locked-gql@example.test')).toEqual(await thrown('nobody-local@example.test'))
  }, 240_000)

  it('password forgot: an account and an unknown address', async () => {
    const result = await compare(
      () => timed(() => browser().request('/api/accounts/password/forgot', { json: { email: 'member@example.test' } })),
      (i) => timed(() => browser().request('/api/accounts/password/forgot', { json: { email: `nobody-${i}@example.test` } })),
    )
    expect(result.existing[0]!.status).toBe(200)
    expectAlike(result)
  }, 240_000)

  it('registration (with e-mail confirmation): a taken address and a new one, after the captcha', async () => {
    const result = await compare(
      () => timed(async () => browser().register({ ...validUser('member@example.test') })),
      (i) => timed(async () => browser().register({ ...validUser(`newcomer-${i}@example.test`) })),
    )
    expect(result.existing[0]!.status).toBe(201)
    // The message repeats the address the visitor typed; the rest must be the same.
    expectAlike(result, (body) => body.replace(/[\w.-]+@example\.test/g, '<address>'))
  }, 240_000)
})
