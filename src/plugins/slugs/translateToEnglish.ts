/**
 * Baidu's general text translation API, the one the original blog used for
 * English slugs: a form POST of `q`, `from`, `to`, `appid`, `salt` and
 * `sign` = MD5(appid + q + salt + key), answered with JSON holding either
 * `trans_result: [{ src, dst }]` or `error_code` + `error_msg`.
 *
 * Failures come back as a TranslationError that says whether trying again
 * later may help (a timeout, the service's own errors, rate and quota limits,
 * an answer that makes no sense) or not (bad credentials, a wrong signature,
 * a refused address), so the job retries only what a retry can fix.
 */
import { createHash, randomInt } from 'node:crypto'

export type TranslateOptions = {
  appId: string
  key: string
  endpoint: string
  timeoutMs: number
}

export class TranslationError extends Error {
  constructor(
    message: string,
    /** True when a later try may succeed. */
    readonly retryable: boolean,
    /** The API's error_code, when it sent one. */
    readonly code?: string,
  ) {
    super(message)
    this.name = 'TranslationError'
  }
}

/**
 * The API's documented error codes. Transient ones: 52001 request timed out,
 * 52002 system error, 54003 call frequency limited, 54004 balance exhausted
 * (a quota, refilled by the account owner), 54005 long queries too frequent.
 */
const RETRYABLE_CODES = new Set(['52001', '52002', '54003', '54004', '54005'])
const CODE_MEANINGS: Record<string, string> = {
  '52001': 'request timed out',
  '52002': 'system error',
  '52003': 'unauthorized user (check TRANSLATE_APPID)',
  '54000': 'a required parameter is empty',
  '54001': 'wrong signature (check TRANSLATE_KEY)',
  '54003': 'call frequency limited',
  '54004': 'account balance exhausted',
  '54005': 'long queries too frequent',
  '58000': 'client IP not allowed',
  '58001': 'translation direction not supported',
  '58002': 'service turned off',
  '58003': 'client IP banned for the day',
  '90107': 'authentication not passed',
  '20003': 'content refused by the security check',
}

/** MD5 of appid + q + salt + key, hex: the API's signature (over the raw UTF-8 text, not its URL encoding). */
export function baiduSign(appId: string, q: string, salt: string, key: string): string {
  return createHash('md5').update(appId + q + salt + key, 'utf8').digest('hex')
}

/** Translates `text` to English (source language detected by the API). */
export async function translateToEnglish(text: string, options: TranslateOptions): Promise<string> {
  const salt = String(randomInt(1, 2 ** 31 - 1))
  const body = new URLSearchParams({
    q: text,
    from: 'auto',
    to: 'en',
    appid: options.appId,
    salt,
    sign: baiduSign(options.appId, text, salt, options.key),
  })
  let response: Response
  try {
    response = await fetch(options.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
    })
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError'
    throw new TranslationError(timedOut ? `no answer within ${options.timeoutMs} ms` : `unreachable: ${(error as Error).message}`, true)
  }
  if (!response.ok) throw new TranslationError(`HTTP ${response.status}`, response.status >= 500 || response.status === 429)
  return englishFrom(await response.text())
}

/** The translation from the API's answer, or a TranslationError saying what was wrong with it. */
export function englishFrom(answer: string): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(answer)
  } catch {
    throw new TranslationError('the answer is not JSON', true)
  }
  const data = (parsed ?? {}) as { error_code?: unknown; error_msg?: unknown; trans_result?: unknown }
  if (data.error_code !== undefined && String(data.error_code) !== '52000') {
    const code = String(data.error_code)
    const meaning = CODE_MEANINGS[code] ?? (typeof data.error_msg === 'string' ? data.error_msg.slice(0, 200) : 'unknown error')
    throw new TranslationError(`error ${code}: ${meaning}`, RETRYABLE_CODES.has(code), code)
  }
  const results = Array.isArray(data.trans_result) ? data.trans_result : []
  const english = results
    .map((r) => (r && typeof r === 'object' && typeof (r as { dst?: unknown }).dst === 'string' ? (r as { dst: string }).dst : ''))
    .join(' ')
    .trim()
  if (!english) throw new TranslationError('the answer holds no translation', true)
  return english
}
