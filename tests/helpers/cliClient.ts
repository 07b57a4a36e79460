/**
 * Sends requests as a command line does (no browser headers), through the
 * same body-normalising step and Payload REST handling as the running app.
 */
import { handleEndpoints, type Payload } from 'payload'

import { normalizeRequestBody } from '../../src/lib/requestBody'

export const BASE = 'http://localhost:3000'

export type CliReply = { status: number; headers: Headers; body: any }

export async function cli(
  payload: Payload,
  cacheKey: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {},
): Promise<CliReply> {
  const request = new Request(BASE + path, { method: init.method ?? (init.body ? 'POST' : 'GET'), headers: init.headers, body: init.body })
  const normalized = await normalizeRequestBody(request)
  const response =
    normalized instanceof Response
      ? normalized
      : await handleEndpoints({ config: payload.config, request: normalized, payloadInstanceCacheKey: cacheKey })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON (an image, say): the text is the body
  }
  return { status: response.status, headers: response.headers, body }
}

export const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})
export const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) })
