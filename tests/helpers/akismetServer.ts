/**
 * A loopback stand-in for Akismet's REST API (1.1): POST forms to
 * /1.1/comment-check, /1.1/submit-spam and /1.1/submit-ham, the key in the
 * `api_key` field. comment-check answers as the mode says: "true" (spam),
 * "false" (ham), "true" with `X-akismet-pro-tip: discard`, an error
 * ("invalid" with a debug header), or no answer at all (slow). A wrong key
 * gets "invalid", as Akismet answers it. `down()` closes the port, so a
 * request is refused; `up()` opens it again on the same port.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type AkismetMode = 'spam' | 'ham' | 'discard' | 'error' | 'slow'
export type AkismetCall = { path: string; form: Record<string, string> }

export type AkismetServer = {
  url: string
  key: string
  calls: AkismetCall[]
  mode: AkismetMode
  /** The calls to one method (`comment-check`, `submit-spam`, `submit-ham`). */
  callsTo: (method: string) => AkismetCall[]
  down: () => Promise<void>
  up: () => Promise<void>
  stop: () => Promise<void>
}

export async function startAkismetServer(key = 'fake-akismet-key'): Promise<AkismetServer> {
  const hanging = new Set<ServerResponse>()
  const answer = (res: ServerResponse, text: string, headers: Record<string, string> = {}) => {
    res.writeHead(200, { 'content-type': 'text/plain', ...headers })
    res.end(text)
  }

  const checkAnswer = (res: ServerResponse) => {
    if (fake.mode === 'slow') return void hanging.add(res)
    if (fake.mode === 'error') return answer(res, 'invalid', { 'x-akismet-debug-help': 'a fake failure' })
    if (fake.mode === 'discard') return answer(res, 'true', { 'x-akismet-pro-tip': 'discard' })
    answer(res, fake.mode === 'spam' ? 'true' : 'false')
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = ''
    for await (const chunk of req) raw += chunk
    const form = Object.fromEntries(new URLSearchParams(raw))
    const path = req.url ?? ''
    fake.calls.push({ path, form })
    if (form.api_key !== fake.key) return answer(res, 'invalid')
    if (path === '/1.1/comment-check') return checkAnswer(res)
    if (path === '/1.1/submit-spam' || path === '/1.1/submit-ham') return answer(res, 'Thanks for making the web a better place.')
    res.writeHead(404).end()
  }

  const server = createServer((req, res) => void handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  const close = async () => {
    for (const res of hanging) res.destroy()
    hanging.clear()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  const fake: AkismetServer = {
    url: `http://127.0.0.1:${port}`,
    key,
    calls: [],
    mode: 'ham',
    callsTo: (method) => fake.calls.filter((c) => c.path === `/1.1/${method}`),
    down: close,
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    stop: async () => {
      if (server.listening) await close()
    },
  }
  return fake
}
