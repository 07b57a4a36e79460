/**
 * The one typed configuration object, built from the environment and validated
 * once at start. A wrong value throws a ConfigError whose message names the
 * variable, so `npm start` stops with a sentence instead of a stack trace.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { config as loadDotenv } from 'dotenv'
import { z } from 'zod'

import { OAuthSettingsError, parseOAuthSettings, type OAuthSettings } from '../plugins/oauth/settings'
import { withoutTrailingSlashes } from './trimEnd'

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

const QUEUE_CONNECTIONS = ['sync', 'pgboss'] as const
const MAIL_DRIVERS = ['log', 'smtp'] as const
const MAIL_ENCRYPTIONS = ['null', 'tls', 'ssl'] as const
/** The rel tokens that make sense on links to other sites (external links always get rel + target=_blank). */
const LINK_REL_TOKENS = ['noopener', 'noreferrer', 'nofollow', 'ugc', 'sponsored', 'external'] as const

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)
const optionalString = z.preprocess(emptyToUndefined, z.string().optional())
const bool = (fallback: boolean) =>
  z.preprocess(
    (v) => (emptyToUndefined(v) === undefined ? fallback : String(v).toLowerCase()),
    z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])]).transform((v) =>
      typeof v === 'boolean' ? v : ['true', '1', 'yes', 'on'].includes(v),
    ),
  )
const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
  .transform(withoutTrailingSlashes)
const port = z.coerce.number().int().min(1).max(65535)

const schema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(emptyToUndefined, port.default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  BASE_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('.data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  EMBEDDED_PG_PORT: z.preprocess(emptyToUndefined, port.default(54329)),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((u) => /^rediss?:\/\//.test(u), 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  PAYLOAD_SECRET: optionalString,
  DB_PUSH: bool(false),
  QUEUE_CONNECTION: z.preprocess(emptyToUndefined, z.enum(QUEUE_CONNECTIONS).default('sync')),
  WORKER: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  APP_TIMEZONE: z.preprocess(
    emptyToUndefined,
    z.string().refine(isTimeZone, 'must be an IANA time zone such as UTC or Europe/Paris').default('UTC'),
  ),
  SYNC_RETRY_SCALE: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1).default(1)),
  // Jobs that talk to other systems (mail, webhooks, imports' media): retried with backoff and jitter for at least this long.
  JOB_RETRY_WINDOW_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(30 * 24 * 3600).default(24 * 3600)),
  JOB_RETRY_DELAY_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3600).default(5)),
  JOB_RETRY_MAX_DELAY_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(24 * 3600).default(600)),
  // GET /metrics: readable with `Authorization: Bearer <METRICS_TOKEN>`, or from loopback without a token.
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
  // `npm run worker` serves /metrics, /healthz and /readyz on this port when set (a worker has no web server).
  WORKER_METRICS_PORT: z.preprocess(emptyToUndefined, port.optional()),
  SEED_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(12, 'must be at least 12 characters (the password policy)').default('inkwell-demo')),
  SEED_ON_START: bool(true),
  APP_DEBUG: bool(false),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  MAIL_DRIVER: z.preprocess(emptyToUndefined, z.enum(MAIL_DRIVERS).default('log')),
  MAIL_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  MAIL_PORT: z.preprocess(emptyToUndefined, port.default(2525)),
  MAIL_USERNAME: optionalString,
  MAIL_PASSWORD: optionalString,
  MAIL_ENCRYPTION: z.preprocess(
    (v) => (emptyToUndefined(v) === undefined ? 'null' : String(v).toLowerCase()),
    z.enum(MAIL_ENCRYPTIONS),
  ),
  MAIL_FROM_ADDRESS: z.preprocess(emptyToUndefined, z.string().email().default('noreply@inkwell.test')),
  MAIL_FROM_NAME: z.preprocess(emptyToUndefined, z.string().default('Inkwell')),
  // SMTP connections each process keeps open and reuses (a pooled transport); 0: a connection per mail.
  MAIL_POOL_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(50).default(0)),
  TRANSLATE_APPID: optionalString,
  TRANSLATE_KEY: optionalString,
  // Slugs (issue 14): the translation API's endpoint (Baidu's general text translation) and its time limit.
  TRANSLATE_ENDPOINT: z.preprocess(emptyToUndefined, httpUrl.default('https://fanyi-api.baidu.com/api/trans/vip/translate')),
  TRANSLATE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(60_000).default(5000)),
  TRANSLATE_TRIES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(20).default(5)),
  // Moderation (issue 29): Akismet's second opinion, off without a key; another address for tests; its time limit.
  AKISMET_KEY: optionalString,
  AKISMET_ENDPOINT: z.preprocess(emptyToUndefined, httpUrl.optional()),
  AKISMET_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(10_000).default(1500)),
  // Uploads in an S3-compatible bucket (issue 32 §1): on when S3_BUCKET is set.
  S3_BUCKET: optionalString,
  S3_ENDPOINT: z.preprocess(emptyToUndefined, httpUrl.optional()),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool(false),
  S3_PUBLIC_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  // Backups (issue 32 §2): with BACKUP_DIR, a scheduled backup (BACKUP_CRON, APP_TIMEZONE) keeping the newest BACKUP_KEEP.
  BACKUP_DIR: optionalString,
  BACKUP_CRON: z.preprocess(
    emptyToUndefined,
    z.string().refine((v) => v.trim().split(' ').filter(Boolean).length === 5, 'must be a 5-field cron expression such as "30 2 * * *"').default('30 2 * * *'),
  ),
  BACKUP_KEEP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1000).default(7)),
  OAUTH_ALLOWED_PROVIDERS: z.preprocess(emptyToUndefined, z.string().default('github,google')),
  // How long a provider may take to answer one request (token, profile, discovery, keys) before the sign-in fails.
  OAUTH_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(500).max(120_000).default(10_000)),
  // Outbound requests to addresses from outside (src/lib/outboundFetch.ts): private and loopback targets, development and tests only.
  OUTBOUND_ALLOW_PRIVATE: bool(false),
  TRUST_PROXY: bool(false),
  REPLY_RATE_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(10)),
  SITEMAP_MAX_URLS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(50_000).default(50_000)),
  // Render cache (src/server/renderCache.ts): on/off, and its bounds.
  RENDER_CACHE: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  RENDER_CACHE_MAX_ENTRIES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000_000).default(10_000)),
  RENDER_CACHE_MAX_MB: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65_536).default(128)),
  REGISTER_VERIFY_EMAIL: bool(false),
  // Accounts (sec-accounts): the absolute session lifetime in seconds, which a refresh cannot extend.
  SESSION_MAX_AGE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(300, 'must be at least 300 seconds').default(30 * 24 * 60 * 60)),
  AVATAR_MAX_BYTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1024, 'must be at least 1024 bytes').default(5 * 1024 * 1024)),
  // sec-platform: request and GraphQL limits.
  MAX_BODY_BYTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1024, 'must be at least 1024 bytes').default(1024 * 1024)),
  UPLOAD_MAX_BYTES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1024, 'must be at least 1024 bytes').optional()),
  UPLOAD_RATE_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100_000).default(60)),
  GRAPHQL_MAX_DEPTH: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(8)),
  GRAPHQL_MAX_ALIASES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1000).default(15)),
  GRAPHQL_MAX_COMPLEXITY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(500)),
  // Activity (views, last-active times): Redis key prefix, and how long a page or flush waits on Redis.
  REDIS_KEY_PREFIX: z.preprocess(emptyToUndefined, z.string().max(100).default('inkwell:')),
  REDIS_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(10_000).default(200)),
  EXTERNAL_LINK_REL: z.preprocess(
    (v) => (emptyToUndefined(v) === undefined ? 'noopener noreferrer nofollow' : String(v).trim().toLowerCase().replace(/\s+/g, ' ')),
    z
      .string()
      .refine(
        (v) => v.split(' ').every((token) => (LINK_REL_TOKENS as readonly string[]).includes(token)),
        `must be space-separated tokens among: ${LINK_REL_TOKENS.join(', ')}`,
      ),
  ),
})

export type Env = ReturnType<typeof buildEnv>

/** Reads, or creates once, the development secret kept under the data dir. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'payload-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(32).toString('hex')
  writeFileSync(file, secret + '\n', { mode: 0o600 })
  return secret
}

/** The sign-in providers' variables, parsed by the oauth plugin's own rules; a mistake stops the start like any other. */
function oauthSettings(source: NodeJS.ProcessEnv, raw: Parameters<typeof parseOAuthSettings>[1]): OAuthSettings {
  try {
    return parseOAuthSettings(source, raw)
  } catch (error) {
    if (error instanceof OAuthSettingsError) throw new ConfigError(error.message)
    throw error
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const variable = String(issue.path[0] ?? 'environment')
      return `${variable}: ${issue.message}`
    })
    .join('\n')
}

export function buildEnv(source: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(source)
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${describeIssues(parsed.error)}`)
  const e = parsed.data
  const production = e.NODE_ENV === 'production'
  const dataDir = path.resolve(e.DATA_DIR)

  // `next build` signs nothing; the secret is a runtime concern.
  const building = source.NEXT_PHASE === 'phase-production-build'
  if (production && !e.PAYLOAD_SECRET && !building) {
    throw new ConfigError('PAYLOAD_SECRET: is required when NODE_ENV=production (use a long random string)')
  }
  if (e.PAYLOAD_SECRET && e.PAYLOAD_SECRET.length < 16) {
    throw new ConfigError('PAYLOAD_SECRET: must be at least 16 characters')
  }
  if (production && e.OUTBOUND_ALLOW_PRIVATE) {
    throw new ConfigError('OUTBOUND_ALLOW_PRIVATE: must not be true when NODE_ENV=production (it lets addresses from outside reach private and loopback hosts)')
  }
  if (e.MAIL_USERNAME && e.MAIL_FROM_ADDRESS.toLowerCase() !== e.MAIL_USERNAME.toLowerCase()) {
    throw new ConfigError(
      `MAIL_FROM_ADDRESS (${e.MAIL_FROM_ADDRESS}) must equal MAIL_USERNAME (${e.MAIL_USERNAME}): most SMTP servers refuse to send for another address`,
    )
  }
  const baseUrl = e.BASE_URL ?? `http://localhost:${e.PORT}`
  const oauth = oauthSettings(source, { allowed: e.OAUTH_ALLOWED_PROVIDERS, timeoutMs: e.OAUTH_TIMEOUT_MS, baseUrl })

  const embeddedDatabase = !e.DATABASE_URL
  const databaseUrl = e.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${e.EMBEDDED_PG_PORT}/inkwell`
  // Port 465 is implicit TLS by definition; anything else keeps what was asked.
  const mailEncryption = e.MAIL_PORT === 465 ? 'ssl' : e.MAIL_ENCRYPTION

  return {
    nodeEnv: e.NODE_ENV,
    production,
    test: e.NODE_ENV === 'test',
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    secureCookies: baseUrl.startsWith('https://'),
    dataDir,
    databaseUrl,
    embeddedDatabase,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    payloadSecret: e.PAYLOAD_SECRET ?? (building ? 'build-time-placeholder-secret' : developmentSecret(dataDir)),
    // Schema push is a development/test convenience; production runs committed migrations.
    dbPush: !production && e.DB_PUSH,
    queueConnection: e.QUEUE_CONNECTION,
    worker: e.WORKER === 'on',
    timeZone: e.APP_TIMEZONE,
    syncRetryScale: e.SYNC_RETRY_SCALE,
    jobRetry: { windowSeconds: e.JOB_RETRY_WINDOW_SECONDS, delaySeconds: e.JOB_RETRY_DELAY_SECONDS, maxDelaySeconds: e.JOB_RETRY_MAX_DELAY_SECONDS },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          publicUrl: e.S3_PUBLIC_URL,
        }
      : undefined,
    backup: { dir: e.BACKUP_DIR === undefined ? undefined : path.resolve(e.BACKUP_DIR), cron: e.BACKUP_CRON, keep: e.BACKUP_KEEP },
    metricsToken: e.METRICS_TOKEN,
    workerMetricsPort: e.WORKER_METRICS_PORT,
    seedPassword: e.SEED_PASSWORD,
    seedOnStart: !production && e.SEED_ON_START,
    debug: e.APP_DEBUG,
    logLevel: e.LOG_LEVEL,
    mail: {
      driver: e.MAIL_DRIVER,
      host: e.MAIL_HOST,
      port: e.MAIL_PORT,
      username: e.MAIL_USERNAME,
      password: e.MAIL_PASSWORD,
      encryption: mailEncryption as (typeof MAIL_ENCRYPTIONS)[number],
      fromAddress: e.MAIL_FROM_ADDRESS,
      fromName: e.MAIL_FROM_NAME,
      poolSize: e.MAIL_POOL_SIZE,
    },
    translate: {
      appId: e.TRANSLATE_APPID,
      key: e.TRANSLATE_KEY,
      endpoint: e.TRANSLATE_ENDPOINT,
      timeoutMs: e.TRANSLATE_TIMEOUT_MS,
      tries: e.TRANSLATE_TRIES,
    },
    akismet: { key: e.AKISMET_KEY, endpoint: e.AKISMET_ENDPOINT, timeoutMs: e.AKISMET_TIMEOUT_MS },
    avatarMaxBytes: e.AVATAR_MAX_BYTES,
    verifyEmail: e.REGISTER_VERIFY_EMAIL,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE,
    externalLinkRel: e.EXTERNAL_LINK_REL,
    oauth,
    /** The policy of every request to an address that came from outside (avatars, later webhooks and imports). */
    outbound: { allowPrivate: e.OUTBOUND_ALLOW_PRIVATE },
    sitemapMaxUrls: e.SITEMAP_MAX_URLS,
    renderCache: { enabled: e.RENDER_CACHE === 'on', maxEntries: e.RENDER_CACHE_MAX_ENTRIES, maxBytes: e.RENDER_CACHE_MAX_MB * 1024 * 1024 },
    trustProxy: e.TRUST_PROXY,
    replyRateLimit: e.REPLY_RATE_LIMIT,
    maxBodyBytes: e.MAX_BODY_BYTES,
    // One limit for every upload, media and avatars alike; AVATAR_MAX_BYTES is its older name.
    uploadMaxBytes: e.UPLOAD_MAX_BYTES ?? (source.AVATAR_MAX_BYTES ? e.AVATAR_MAX_BYTES : 10 * 1024 * 1024),
    uploadRateLimit: e.UPLOAD_RATE_LIMIT,
    graphql: { maxDepth: e.GRAPHQL_MAX_DEPTH, maxAliases: e.GRAPHQL_MAX_ALIASES, maxComplexity: e.GRAPHQL_MAX_COMPLEXITY },
  }
}

/**
 * What a process decides for itself, whatever the environment says: `npm run
 * worker` always works, a one-shot script (seed, migrate, `npm run blog`) never
 * takes jobs from the queue's workers.
 */
export type ProcessOverrides = Partial<Pick<Env, 'worker'>>

let cached: Env | undefined
/**
 * The process-wide configuration, built on first use. Every entry point reads
 * it through here (scripts, the Next bundle, the Astro handler), so `.env` in
 * the working directory is loaded here, once; variables already set in the
 * environment win over it. A script passes its overrides on its first call,
 * before anything (payload.config.ts) builds the configuration without them.
 */
export function getEnv(overrides: ProcessOverrides = {}): Env {
  if (!cached) {
    loadDotenv({ path: path.resolve('.env'), quiet: true, override: false })
    cached = { ...buildEnv(), ...overrides }
  }
  const built = cached
  const late = Object.entries(overrides).filter(([name, value]) => built[name as keyof ProcessOverrides] !== value)
  if (late.length) throw new Error(`getEnv: ${late.map(([name]) => name).join(', ')} passed after the configuration was built; pass it on the first call`)
  return built
}
