/**
 * docs/API.md's cookie-jar and captcha examples, run with curl exactly as
 * written against Payload's REST handling in-process (the e2e api-docs test
 * runs every example against the built app; this one runs in seconds):
 * the jar's session is honoured by /api/users/me, and the captcha is saved
 * under the name of what it is.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { promisify } from 'node:util'

import { handleEndpoints } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { contentMatchesName, curlCommands, outputFileOf } from '../helpers/apiDocs'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { captchaAnswer } from '../helpers/restClient'
import { register, PASSWORD } from '../helpers/users'

const run = promisify(execFile)
const DOC = readFileSync(path.resolve(import.meta.dirname, '../../docs/API.md'), 'utf8')

let t: TestPayload
let server: Server
let workDir: string
const values: Record<string, string> = {}

beforeAll(async () => {
  // Payload's REST handling behind a plain node server, the way the one-origin server hands it /api.
  server = createServer(async (req, res) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream)
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, duplex: 'half' } as RequestInit)
    const response = await handleEndpoints({ config: t.payload.config, request, payloadInstanceCacheKey: t.databaseName })
    const outgoing: Record<string, string | string[]> = {}
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') outgoing[name] = value
    })
    if (response.headers.getSetCookie().length) outgoing['set-cookie'] = response.headers.getSetCookie()
    res.writeHead(response.status, outgoing)
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t = await createTestPayload({ BASE_URL: baseUrl, QUEUE_CONNECTION: 'sync' })
  await register(t.payload, 'docs-reader@example.test')
  workDir = mkdtempSync(path.join(tmpdir(), 'inkwell-api-docs-session-'))
  Object.assign(values, { BASE_URL: baseUrl, EMAIL: 'docs-reader@example.test', PASSWORD })
})
afterAll(async () => {
  server?.close()
  await t?.destroy()
})

async function curl(command: string): Promise<{ status: number; body: string }> {
  const filled = command.replace(/<([A-Z_]+)>/g, (whole, name: string) => values[name] ?? whole)
  expect(filled).not.toMatch(/<[A-Z_]+>/)
  const { stdout } = await run('bash', ['-c', `${filled} --write-out '\\n%{http_code}'`], { cwd: workDir })
  const lines = stdout.trimEnd().split('\n')
  return { status: Number(lines.pop()), body: lines.join('\n') }
}

describe('docs/API.md, signing in with a cookie jar and registering with the captcha', () => {
  const commands = curlCommands(DOC)
  const inSection = (section: string) => commands.filter((c) => c.section === section)

  it('the cookie-jar session answers /api/users/me with the signed-in user', async () => {
    const jar = inSection('Signing in').filter((c) => c.command.includes('cookies.txt'))
    const me = jar.find((c) => c.command.includes('/api/users/me'))
    expect(me, 'a cookie-jar /api/users/me example').toBeDefined()
    for (const { command, expect: status, line } of jar.slice(0, jar.indexOf(me!) + 1)) {
      const answer = await curl(command)
      expect(answer.status, `docs/API.md:${line}`).toBe(status)
      if (command === me!.command) expect(JSON.parse(answer.body).user, `docs/API.md:${line}: ${answer.body}`).toMatchObject({ email: values.EMAIL })
    }
  })

  it('saves the captcha under the name of its format, and registers with its answer', async () => {
    for (const { command, expect: status, line } of inSection('Registering')) {
      if (command.includes('<CAPTCHA>')) {
        const token = /inkwell-captcha\t(\S+)/.exec(readFileSync(path.join(workDir, 'register.txt'), 'utf8'))?.[1]
        values.CAPTCHA = await captchaAnswer(t.payload, token!)
      }
      const answer = await curl(command)
      expect(answer.status, `docs/API.md:${line}: ${answer.body}`).toBe(status)
      const saved = outputFileOf(command)
      if (saved) expect(contentMatchesName(saved, readFileSync(path.join(workDir, saved))), `docs/API.md:${line} saves ${saved}`).toBe(true)
    }
  })
})
