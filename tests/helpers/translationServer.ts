/**
 * A loopback server that speaks Baidu's general text translation contract
 * (POST form: q, from, to, appid, salt, sign = MD5(appid + q + salt + key);
 * JSON answers with trans_result or error_code/error_msg). It checks every
 * request as the real API does (missing parameters 54000, unknown appid 52003,
 * wrong signature 54001), translates from a small dictionary, and plays
 * scripted failures in order: an error code, a timeout (no answer), garbage.
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Scripted = { code: string } | 'timeout' | 'garbage' | 'empty'
export type Call = { q: string; from: string; to: string; appid: string; salt: string; sign: string; validSign: boolean }

export type TranslationServer = {
  url: string
  appId: string
  key: string
  calls: Call[]
  /** Answers the next requests with these, in order, before translating normally again. */
  script: (...steps: Scripted[]) => void
  dictionary: Map<string, string>
  /** Holds every answer until the returned function is called. */
  hold: () => () => void
  /** Checks signatures with another key from now on (a client with the old key then signs wrongly). */
  setKey: (key: string) => void
  stop: () => Promise<void>
}

const MESSAGES: Record<string, string> = {
  '52001': 'TIMEOUT',
  '52002': 'SYSTEM ERROR',
  '52003': 'UNAUTHORIZED USER',
  '54000': 'PARAM_FROM_TO_OR_Q_EMPTY',
  '54001': 'Invalid Sign',
  '54003': 'Invalid Access Limit',
  '54004': 'Balance is insufficient',
  '54005': 'Long query too frequent',
  '58000': 'Client IP illegal',
}

export async function startTranslationServer({ appId = '20261124000001', key = 'loopback-secret-key' } = {}): Promise<TranslationServer> {
  const calls: Call[] = []
  const queue: Scripted[] = []
  const dictionary = new Map<string, string>()
  const hanging = new Set<ServerResponse>()
  let held: Promise<void> | undefined
  let currentKey = key

  const reply = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
    res.end(typeof body === 'string' ? body : JSON.stringify(body))
  }
  const error = (res: ServerResponse, code: string) => reply(res, { error_code: code, error_msg: MESSAGES[code] ?? 'ERROR' })

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = ''
    for await (const chunk of req) raw += chunk
    const form = new URLSearchParams(req.headers['content-type']?.includes('x-www-form-urlencoded') ? raw : (req.url?.split('?')[1] ?? ''))
    const call: Call = {
      q: form.get('q') ?? '',
      from: form.get('from') ?? '',
      to: form.get('to') ?? '',
      appid: form.get('appid') ?? '',
      salt: form.get('salt') ?? '',
      sign: form.get('sign') ?? '',
      validSign: false,
    }
    call.validSign = createHash('md5').update(call.appid + call.q + call.salt + currentKey).digest('hex') === call.sign
    calls.push(call)
    await held
    if (req.method !== 'POST' && req.method !== 'GET') return error(res, '54000')
    if (!call.q || !call.from || !call.to || !call.appid || !call.salt || !call.sign) return error(res, '54000')
    if (call.appid !== appId) return error(res, '52003')
    if (!call.validSign) return error(res, '54001')
    const step = queue.shift()
    if (step === 'timeout') {
      hanging.add(res)
      return
    }
    if (step === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' })
      return res.end('<html>502 Bad Gateway</html>')
    }
    if (step === 'empty') return reply(res, { from: 'zh', to: 'en', trans_result: [] })
    if (step) return error(res, step.code)
    const dst = dictionary.get(call.q) ?? `Translated ${call.q.length} chars`
    reply(res, { from: 'zh', to: call.to, trans_result: [{ src: call.q, dst }] })
  }

  const server = createServer((req, res) => void handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/api/trans/vip/translate`,
    appId,
    key,
    calls,
    dictionary,
    script: (...steps) => void queue.push(...steps),
    hold: () => {
      let release!: () => void
      held = new Promise<void>((resolve) => (release = resolve))
      return () => {
        held = undefined
        release()
      }
    },
    setKey: (next) => void (currentKey = next),
    stop: async () => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
