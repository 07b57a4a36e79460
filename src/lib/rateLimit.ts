/**
 * Per-IP rate limits on the public account forms (register, login, password
 * reset requests). Stored in Redis when REDIS_URL is set, otherwise in a
 * PostgreSQL table, so several web processes share one count either way.
 */
import type { Redis } from 'ioredis'
import type { Payload, PayloadRequest } from 'payload'
import { APIError } from 'payload'
import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'

import { pluginOptionsOf } from '../plugins/pluginOptions'
import type { MessageKey } from './i18n'
import { validationTranslator } from './i18n/request'
import { poolOf } from './pool'
import { connectRedis, whenReady } from './redis'

export type RateLimitedAction = 'register' | 'login' | 'passwordReset' | 'captcha' | 'reply' | 'upload' | 'oauthStart' | 'cardDraw'

type Window = { points: number; duration: number }

/** Attempts allowed per IP in each window. Generous for people, tight for scripts. */
export const RATE_LIMITS = {
  register: { points: 10, duration: 60 * 60 },
  login: { points: 20, duration: 15 * 60 },
  passwordReset: { points: 5, duration: 15 * 60 },
  // A person needs a few pictures per form; a solver farm needs thousands.
  captcha: { points: 30, duration: 15 * 60 },
  // Each start of a sign-in with a provider stores a row until it is used or expires.
  oauthStart: { points: 30, duration: 15 * 60 },
  // Share cards drawn (not served: a kept card costs nothing). An article has at most 18; a crawler needs one or two.
  cardDraw: { points: 30, duration: 10 * 60 },
} satisfies Record<string, Window>

/**
 * The configured parts (REPLY_RATE_LIMIT, UPLOAD_RATE_LIMIT, where to count),
 * which the composition records under RATE_LIMITS_KEY (src/plugins/index.ts):
 * the limits are shared by several plugins (accounts, content), so none owns them.
 */
export const RATE_LIMITS_KEY = 'rateLimits'
export type RateLimitSettings = { replyPerMinute: number; uploadsPerHour: number; redisUrl?: string; redisTimeoutMs: number }

function settingsOf(payload: Payload): RateLimitSettings {
  const settings = pluginOptionsOf<RateLimitSettings>(payload, RATE_LIMITS_KEY)
  if (!settings) throw new Error('rate limits: no settings in the config (inkwellPlugins records them under RATE_LIMITS_KEY)')
  return settings
}

function windows(settings: RateLimitSettings): Record<RateLimitedAction, Window> {
  return {
    ...RATE_LIMITS,
    // Per user, not per address: a flood of replies from one account.
    reply: { points: settings.replyPerMinute, duration: 60 },
    // Per user: uploads (media and avatars) per hour.
    upload: { points: settings.uploadsPerHour, duration: 60 * 60 },
  }
}

/** What a refusal says was too many: a catalog key, worded in the request's language. */
export type LimitedWhat = Extract<MessageKey, `error.rateLimit.${string}`>

export class RateLimited extends APIError {
  readonly retryAfterSeconds: number
  constructor(retryAfterSeconds: number, message: string) {
    super(message, 429, undefined, true)
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds))
  }
}

const limiters = new WeakMap<Payload, Promise<Record<RateLimitedAction, RateLimiterAbstract>>>()

async function postgresLimiter(payload: Payload, action: RateLimitedAction, window: Window): Promise<RateLimiterAbstract> {
  const storeClient = poolOf(payload)
  return new Promise((resolve, reject) => {
    const limiter: RateLimiterPostgres = new RateLimiterPostgres(
      { storeClient, storeType: 'pool', tableName: 'rate_limits', keyPrefix: action, ...window },
      (error?: Error) => (error ? reject(error) : resolve(limiter)),
    )
  })
}

/**
 * Redis first; if Redis is unreachable, the PostgreSQL limiter answers instead, so limits never switch off.
 * At once when the connection is down (not "ready"), and after REDIS_TIMEOUT_MS when Redis is up but
 * does not answer (paused, overloaded): a sign-in never waits on Redis longer than a page does.
 */
function redisLimiter(redis: Redis, action: RateLimitedAction, window: Window, insurance: RateLimiterAbstract): RateLimiterAbstract {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `inkwell:rl:${action}`,
    insuranceLimiter: insurance,
    rejectIfRedisNotReady: true,
    ...window,
  })
}

async function buildLimiters(payload: Payload, settings: RateLimitSettings) {
  const { redisUrl, redisTimeoutMs } = settings
  const limits = windows(settings)
  const actions = Object.keys(limits) as RateLimitedAction[]
  const postgres = Object.fromEntries(
    await Promise.all(actions.map(async (a) => [a, await postgresLimiter(payload, a, limits[a])] as const)),
  ) as Record<RateLimitedAction, RateLimiterAbstract>
  if (!redisUrl) return postgres
  const redis = connectRedis({
    url: redisUrl,
    timeoutMs: redisTimeoutMs,
    log: (m) => payload.logger.warn(`rate limits: ${m}`),
    meanwhile: { down: 'counting in PostgreSQL until it returns', back: 'counting in Redis again' },
  })
  // Built at the first limited request: let the connection open (bounded) so that one counts in Redis too.
  await whenReady(redis, redisTimeoutMs).catch(() => {})
  return Object.fromEntries(actions.map((a) => [a, redisLimiter(redis, a, limits[a], postgres[a])])) as Record<RateLimitedAction, RateLimiterAbstract>
}

/**
 * The client's address as the one-origin server saw it (Next fills
 * X-Forwarded-For from the socket when no proxy did). Requests made through
 * the Local API are not limited: they are the
 * application's own calls, not a visitor's.
 */
export function clientIp(req: Pick<PayloadRequest, 'headers' | 'payloadAPI'>): string | undefined {
  const headers = req.headers
  if (req.payloadAPI === 'local' || !headers) return undefined
  // The last entry is the address the nearest proxy (or Next, from the socket) saw; earlier ones are the client's say-so.
  const forwarded = headers.get('x-forwarded-for')?.split(',').at(-1)?.trim()
  return forwarded || headers.get('x-real-ip') || 'unknown'
}

/** Counts one attempt for the request's IP; throws a 429 RateLimited when the window is used up. */
export async function limitByIp(req: PayloadRequest, action: RateLimitedAction): Promise<void> {
  const ip = clientIp(req)
  if (ip) await limitByKey(req, action, ip)
}

/** The same for a route served outside Payload's handlers (the sign-in routes under /login): the request's address. */
export async function limitRequestByIp(payload: Payload, request: Request, action: RateLimitedAction, what?: LimitedWhat): Promise<void> {
  const ip = clientIp({ headers: request.headers, payloadAPI: 'REST' })
  if (ip) await limitByKey({ payload, headers: request.headers } as PayloadRequest, action, ip, what)
}

/** Counts one attempt for `key` (an address, a user id); throws a 429 RateLimited when the window is used up. */
export async function limitByKey(req: PayloadRequest, action: RateLimitedAction, key: string, what: LimitedWhat = 'error.rateLimit.attempts'): Promise<void> {
  const { payload } = req
  if (!limiters.has(payload)) limiters.set(payload, buildLimiters(payload, settingsOf(payload)))
  const limiter = (await limiters.get(payload)!)[action]
  try {
    await limiter.consume(key)
  } catch (result) {
    if (result instanceof RateLimiterRes) {
      const t = validationTranslator(req)
      const minutes = Math.max(1, Math.ceil(result.msBeforeNext / 60_000))
      throw new RateLimited(result.msBeforeNext / 1000, `${t(what)} ${t('error.retryIn', { count: minutes })}`)
    }
    throw result
  }
}
