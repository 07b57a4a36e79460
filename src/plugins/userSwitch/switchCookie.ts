/**
 * The debug-only user switcher's rules, free of any framework:
 *
 *  - when it exists at all: APP_DEBUG=true, the request's host ends in .dev,
 *    .local or .test (the original's rule), and never with NODE_ENV=production;
 *  - the switch cookie: it names the owner, the owner's session id and the
 *    user browsed as, and is signed (HMAC-SHA256 with a key derived from
 *    PAYLOAD_SECRET), so it cannot be forged or moved to another session.
 *    The owner's own session cookie is left as it is: the request is still
 *    authenticated as the owner first, and switching back is deleting the
 *    switch cookie, with no password asked.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

import type { Payload } from 'payload'

import { pluginOptionsOf } from '../pluginOptions'

export const SWITCH_COOKIE = 'inkwell-switch'
export const DEBUG_TLDS = ['dev', 'local', 'test'] as const

export type SwitcherSettings = { debug: boolean; production: boolean }

/** The host name of a Host header value: no port, no trailing dot, lower case ("[::1]:3000" → "::1"). */
export function hostName(host: string | null | undefined): string {
  const value = (host ?? '').trim().toLowerCase()
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') === -1 ? undefined : value.indexOf(']'))
  const withoutPort = value.includes(':') ? value.slice(0, value.lastIndexOf(':')) : value
  return withoutPort.endsWith('.') ? withoutPort.slice(0, -1) : withoutPort
}

/** True when the switcher exists for a request to `host`. */
export function switcherActive(settings: SwitcherSettings, host: string | null | undefined): boolean {
  if (settings.production || !settings.debug) return false
  const name = hostName(host)
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return false
  return (DEBUG_TLDS as readonly string[]).includes(name.slice(dot + 1))
}

/** The host a request was made to: its Host header, else its URL's. */
export function requestHost(headers: Headers, url?: string): string | undefined {
  const header = headers.get('host')
  if (header) return header
  if (!url) return undefined
  try {
    return new URL(url).host
  } catch {
    return undefined
  }
}

export type SwitchClaim = {
  /** The user who switched (holder of users.switch). */
  ownerId: number
  /** The owner's session id: the switch ends with that session. */
  sid: string
  /** The user being browsed as. */
  targetId: number
}

function signingKey(secret: string): Buffer {
  // A key of its own, so a switch signature can never be mistaken for any other use of the secret.
  return createHmac('sha256', secret).update('inkwell:user-switch:v1').digest()
}

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', signingKey(secret)).update(body).digest()
}

export function signSwitch(secret: string, claim: SwitchClaim): string {
  const body = Buffer.from(JSON.stringify([claim.ownerId, claim.sid, claim.targetId])).toString('base64url')
  return `${body}.${mac(secret, body).toString('base64url')}`
}

/** The claim of a cookie value this server signed, else undefined. */
export function verifySwitch(secret: string, value: string | undefined): SwitchClaim | undefined {
  if (!value || value.length > 512) return undefined
  const [body, signature, extra] = value.split('.')
  if (!body || !signature || extra !== undefined) return undefined
  const given = Buffer.from(signature, 'base64url')
  const expected = mac(secret, body)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
  try {
    const [ownerId, sid, targetId] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[]
    if (!Number.isInteger(ownerId) || !Number.isInteger(targetId) || typeof sid !== 'string' || !sid) return undefined
    return { ownerId: ownerId as number, sid, targetId: targetId as number }
  } catch {
    return undefined
  }
}

/** The value of one cookie in a Cookie header. */
export function cookieFrom(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue
    try {
      return decodeURIComponent(part.slice(eq + 1).trim())
    } catch {
      return undefined
    }
  }
  return undefined
}

export function switchCookie(value: string, secure: boolean): string {
  // A browser-session cookie: closing the browser ends the switch (the owner's own session may last longer).
  return `${SWITCH_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`
}

export function expiredSwitchCookie(secure: boolean): string {
  return `${SWITCH_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT${secure ? '; Secure' : ''}`
}

export const USER_SWITCH_KEY = 'userSwitch'

/** The settings the composition gave the plugin (for the admin header, which has only the Payload instance). */
export function switcherSettingsOf(payload: Payload): SwitcherSettings | undefined {
  return pluginOptionsOf<SwitcherSettings>(payload, USER_SWITCH_KEY)
}
