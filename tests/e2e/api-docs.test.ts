/**
 * docs/API.md cannot drift: every curl command in it is run, placeholders
 * filled in, against the app started the README's way, and must answer the
 * status written above it (`# expect NNN`).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

import pg from 'pg'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { contentMatchesName, curlCommands, outputFileOf } from '../helpers/apiDocs'
import { startApp, type RunningApp } from '../helpers/app'
import { waitUntil } from '../helpers/waitUntil'

const run = promisify(execFile)
const DOC = path.resolve(import.meta.dirname, '../../docs/API.md')
const PASSWORD = 'inkwell-demo' // the demo seed's (SEED_PASSWORD's default)

let app: RunningApp
let workDir: string
const values: Record<string, string> = {}

async function api(pathname: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers)
  if (init.json !== undefined) headers.set('content-type', 'application/json')
  const response = await fetch(app.url + pathname, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body })
  return { status: response.status, body: (await response.json()) as any }
}

async function login(email: string): Promise<string> {
  const { body } = await api('/api/users/login', { method: 'POST', json: { email, password: PASSWORD } })
  return body.token
}

async function createToken(jwt: string, name: string, scope: 'read' | 'write') {
  const { status, body } = await api('/api/access-tokens', { method: 'POST', headers: { authorization: `JWT ${jwt}` }, json: { name, scope } })
  if (status !== 201) throw new Error(`token not created: ${JSON.stringify(body)}`)
  return body.doc as { id: number; token: string }
}

/** The captcha answer for the cookie in the jar the registration example keeps, read where only a test may. */
async function captchaAnswer(): Promise<string> {
  const jar = readFileSync(path.join(workDir, 'register.txt'), 'utf8')
  const token = /inkwell-captcha\t(\S+)/.exec(jar)?.[1]
  if (!token) throw new Error('no captcha cookie in register.txt')
  const client = new pg.Client({ connectionString: app.databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query('select answer from captcha_challenges where token = $1', [token])
    return rows[0].answer
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  app = await startApp({ REPLY_RATE_LIMIT: '1000', QUEUE_CONNECTION: 'sync' })
  workDir = mkdtempSync(path.join(tmpdir(), 'inkwell-api-docs-'))
  const image = path.join(workDir, 'photo.png')
  writeFileSync(image, await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } }).png().toBuffer())

  const authorJwt = await login('author@inkwell.test')
  const readerJwt = await login('reader1@inkwell.test')
  const author = (await api('/api/users/me', { headers: { authorization: `JWT ${authorJwt}` } })).body.user
  const { body: articles } = await api(`/api/articles?depth=0&limit=1&where[status][equals]=published&where[author][equals]=${author.id}`)
  const articleId = articles.docs[0].id
  // A reader's reply gives the author a notification to mark read.
  await api('/api/replies', { method: 'POST', headers: { authorization: `JWT ${readerJwt}` }, json: { article: articleId, body: 'For the docs.' } })
  const notificationId = await waitUntil(
    async () => (await api('/api/notifications?depth=0&limit=1', { headers: { authorization: `JWT ${authorJwt}` } })).body.docs?.[0]?.id as number | undefined,
    { what: "the reply's notification to the author" },
  )

  Object.assign(values, {
    BASE_URL: app.url,
    EMAIL: 'author@inkwell.test',
    PASSWORD,
    JWT: authorJwt,
    ACCESS_TOKEN: (await createToken(authorJwt, 'docs: write', 'write')).token,
    READ_TOKEN: (await createToken(authorJwt, 'docs: read', 'read')).token,
    TOKEN_ID: String((await createToken(authorJwt, 'docs: to revoke', 'read')).id),
    ARTICLE_ID: String(articleId),
    NOTIFICATION_ID: String(notificationId),
    IMAGE_PATH: image,
    RESET_TOKEN: 'made-up-reset-token',
  })
}, 600_000)
afterAll(() => app?.stop())

describe('docs/API.md', () => {
  const commands = curlCommands(readFileSync(DOC, 'utf8'))

  it('has a curl example for every form and endpoint the issue names', () => {
    const all = commands.map((c) => c.command).join('\n')
    for (const endpoint of [
      '/api/users/login',
      '/api/accounts/login',
      '/api/accounts/logout',
      '/api/users/logout',
      '/api/accounts/register',
      '/api/accounts/profile',
      '/api/accounts/avatar',
      '/api/accounts/password/forgot',
      '/api/accounts/password/reset',
      '/api/replies',
      '/api/articles',
      '/api/media',
      '/api/notifications/<NOTIFICATION_ID>',
      '/api/access-tokens',
      '/card',
    ]) {
      expect(all, endpoint).toContain(endpoint)
    }
    for (const form of ["--data '", '-X POST -G', "Content-Type: application/json", "-F 'file=@<IMAGE_PATH>'", "-F 'type=avatar'", 'access_token=', 'Authorization: Bearer']) {
      expect(all, form).toContain(form)
    }
    expect(commands.length).toBeGreaterThan(40)
  })

  // One after another, in the document's order: later examples build on earlier ones (cookie jars, the captcha).
  it('every curl command answers the status written above it', async () => {
    const failures: string[] = []
    for (const { line, expect: status, command } of commands) {
      if (command.includes('<CAPTCHA>')) values.CAPTCHA = await captchaAnswer()
      const filled = command.replace(/<([A-Z_]+)>/g, (whole, name: string) => values[name] ?? whole)
      expect(filled, `docs/API.md:${line} has a placeholder the test does not know`).not.toMatch(/<[A-Z_]+>/)
      const { stdout } = await run('bash', ['-c', `${filled} --write-out '\\n%{http_code}'`], { cwd: workDir, maxBuffer: 16 * 1024 * 1024 })
      const answered = Number(stdout.trim().split('\n').pop())
      if (answered !== status) failures.push(`docs/API.md:${line} answered ${answered}, expected ${status}: ${command}\n${stdout.slice(0, 400)}`)
      // A 200 can still be the wrong answer: a session example must be signed in, a saved file must be what its name says.
      if (/\/api\/users\/me\b/.test(command) && /"user":null/.test(stdout)) failures.push(`docs/API.md:${line} is not signed in: ${command}\n${stdout.slice(0, 400)}`)
      const saved = outputFileOf(command)
      if (saved && !contentMatchesName(saved, readFileSync(path.join(workDir, saved)))) failures.push(`docs/API.md:${line} saves ${saved}, which is not what its name says`)
    }
    expect(failures).toEqual([])
  }, 300_000)
})
