/**
 * The one way the server makes an HTTP request, with limits that hold while
 * the answer is read (a time limit on the whole exchange, a byte cap counted
 * chunk by chunk, the connection closed as soon as either is passed), in two
 * kinds:
 *
 *  - `outboundFetch`: for every address that came from outside (a provider's
 *    avatar URL, and later webhook targets or imported media). The host is
 *    resolved and every address it resolves to must be a public unicast one
 *    (ipaddr.js's classification: no loopback, private, link-local such as
 *    the cloud metadata address 169.254.169.254, unique-local IPv6, mapped or
 *    embedded IPv4 forms of those, unspecified, multicast or reserved). The
 *    check runs in the connection's own DNS lookup (undici Agent `connect.lookup`),
 *    so it applies to the address actually connected, and again on every
 *    redirect hop, which is followed by hand with a hop limit.
 *    `OUTBOUND_ALLOW_PRIVATE=true` (development and tests only; refused in
 *    production by src/lib/env.ts) lets private and loopback targets through.
 *  - `limitedFetch`: for the endpoints the operator configured (a provider's
 *    token and user API): the same limits, no address check, no redirects.
 */
import dns, { type LookupAddress } from 'node:dns'

import ipaddr from 'ipaddr.js'
import { Agent, request, type Dispatcher } from 'undici'

export type OutboundErrorCode = 'OUTBOUND_REFUSED' | 'OUTBOUND_TOO_LARGE' | 'OUTBOUND_TIMEOUT' | 'OUTBOUND_REDIRECTS' | 'OUTBOUND_FAILED'

/** Why an outbound request did not give an answer; `code` says which limit or rule stopped it. */
export class OutboundError extends Error {
  constructor(
    message: string,
    readonly code: OutboundErrorCode,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'OutboundError'
  }
}

/** Which resolved addresses a guarded request may connect to. */
export type OutboundPolicy = { allowPrivate: boolean }

/**
 * True only for a public unicast address. IPv4-mapped IPv6 (`::ffff:127.0.0.1`,
 * `::ffff:7f00:1`) is judged as the IPv4 address it carries; every other
 * special range (NAT64, 6to4, Teredo, documentation, …) is refused too.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  if (!ipaddr.isValid(bare)) return false
  return ipaddr.process(bare).range() === 'unicast'
}

/** The rule one policy applies to each address (a predicate, so tests can compose it with the real classification). */
export type AddressRule = (address: string) => boolean
export const publicOnly: AddressRule = isPublicAddress
const anyAddress: AddressRule = () => true

export type OutboundRequest = {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  /** The whole exchange, redirects and reading the body included. */
  timeoutMs: number
  /** Largest body read; the connection is closed as soon as more arrives. */
  maxBytes: number
  /** Redirects followed (each hop checked again); 0 refuses any redirect. */
  maxRedirects?: number
}

export type OutboundResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; url: string }

type LookupCallback = (error: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void

/** A DNS lookup that fails when any address the name resolves to breaks the rule: the socket then never opens. */
function checkingLookup(rule: AddressRule) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error)
      const refused = addresses.find((a) => !rule(a.address))
      if (refused || addresses.length === 0) {
        const what = refused ? `${refused.address}, which is not a public address` : 'no address'
        return callback(new OutboundError(`${hostname} resolves to ${what}`, 'OUTBOUND_REFUSED') as NodeJS.ErrnoException)
      }
      if (options.all) callback(null, addresses)
      else callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}

type Guard = { dispatcher: Dispatcher; rule: AddressRule }
const guards = new Map<AddressRule, Guard>()

function guardFor(rule: AddressRule): Guard {
  let guard = guards.get(rule)
  if (!guard) {
    guard = { rule, dispatcher: new Agent({ connect: { lookup: checkingLookup(rule) as never } }) }
    guards.set(rule, guard)
  }
  return guard
}

const trusted = new Agent()

/** Only http(s); an IP literal is checked here, since a socket to a literal address does no lookup. */
function checkTarget(url: URL, rule: AddressRule | undefined): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundError(`${url.protocol} addresses are not fetched`, 'OUTBOUND_REFUSED')
  if (!rule) return
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (ipaddr.isValid(host) && !rule(host)) throw new OutboundError(`${host} is not a public address`, 'OUTBOUND_REFUSED')
}

/** The first OutboundError in the cause chain, or the error as a timeout or a plain failure. */
function asOutboundError(error: unknown, signal: AbortSignal, timeoutMs: number): OutboundError {
  for (let e = error as { cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++, e = e.cause as { cause?: unknown } | undefined) {
    if (e instanceof OutboundError) return e
  }
  if (signal.aborted) return new OutboundError(`no complete answer within ${timeoutMs} ms`, 'OUTBOUND_TIMEOUT', { cause: error })
  return new OutboundError(`the request failed: ${(error as Error)?.message ?? String(error)}`, 'OUTBOUND_FAILED', { cause: error })
}

/** Closes the connection of an answer not read (the stream's own abort error has nowhere to go). */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined)
  body.destroy()
}

async function readCapped(body: Dispatcher.ResponseData['body'], length: string | string[] | undefined, maxBytes: number): Promise<Buffer> {
  if (Number(length ?? 0) > maxBytes) {
    discard(body)
    throw new OutboundError(`the answer announces more than ${maxBytes} bytes`, 'OUTBOUND_TOO_LARGE')
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += (chunk as Buffer).byteLength
    if (size > maxBytes) {
      discard(body)
      throw new OutboundError(`the answer is larger than ${maxBytes} bytes`, 'OUTBOUND_TOO_LARGE')
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

async function send(address: string | URL, options: OutboundRequest, dispatcher: Dispatcher, rule: AddressRule | undefined): Promise<OutboundResponse> {
  const signal = AbortSignal.timeout(options.timeoutMs)
  const maxRedirects = options.maxRedirects ?? 0
  let url = new URL(address)
  let method = options.method ?? 'GET'
  let body = options.body
  const headers = { ...options.headers }
  try {
    for (let hop = 0; ; hop++) {
      checkTarget(url, rule)
      const answer = await request(url, { method, headers, body, signal, dispatcher })
      const location = answer.headers.location
      if (REDIRECTS.has(answer.statusCode) && location) {
        discard(answer.body)
        if (hop >= maxRedirects) throw new OutboundError(`more than ${maxRedirects} redirects`, 'OUTBOUND_REDIRECTS')
        const next = new URL(String(Array.isArray(location) ? location[0] : location), url)
        if (url.protocol === 'https:' && next.protocol !== 'https:') throw new OutboundError('a redirect from https to http', 'OUTBOUND_REFUSED')
        // Credentials never follow a redirect to another origin.
        if (next.origin !== url.origin) for (const name of Object.keys(headers)) if (/^(authorization|cookie)$/i.test(name)) delete headers[name]
        if (answer.statusCode === 303 || (method === 'POST' && answer.statusCode <= 302)) {
          method = 'GET'
          body = undefined
        }
        url = next
        continue
      }
      const bytes = await readCapped(answer.body, answer.headers['content-length'], options.maxBytes)
      return { status: answer.statusCode, headers: answer.headers, body: bytes, url: url.href }
    }
  } catch (error) {
    throw asOutboundError(error, signal, options.timeoutMs)
  }
}

/** A request to an address that came from outside: public addresses only (unless the policy allows private ones), every hop checked. */
export function outboundFetch(url: string | URL, policy: OutboundPolicy, options: OutboundRequest): Promise<OutboundResponse> {
  return outboundFetchWithRule(url, policy.allowPrivate ? anyAddress : publicOnly, options)
}

/** outboundFetch with the address rule given: the policy's two rules, or a test's composition of the real classification. */
export function outboundFetchWithRule(url: string | URL, rule: AddressRule, options: OutboundRequest): Promise<OutboundResponse> {
  return send(url, options, guardFor(rule).dispatcher, rule === anyAddress ? undefined : rule)
}

/** A request to an endpoint the operator configured: the same time and byte limits, no address rule. */
export function limitedFetch(url: string | URL, options: OutboundRequest): Promise<OutboundResponse> {
  return send(url, options, trusted, undefined)
}
