import { describe, expect, it } from 'vitest'

import { buildEnv, ConfigError } from '../../src/lib/env'

const base = { DATA_DIR: '/tmp/inkwell-env-test', PAYLOAD_SECRET: 'a-long-enough-test-secret' }
const build = (extra: Record<string, string>) => buildEnv({ ...base, ...extra } as unknown as NodeJS.ProcessEnv)
const failure = (extra: Record<string, string>) => {
  try {
    build(extra)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  throw new Error('expected a ConfigError')
}

describe('configuration', () => {
  it('has working defaults with no environment at all', () => {
    const env = build({})
    expect(env.port).toBe(3000)
    expect(env.baseUrl).toBe('http://localhost:3000')
    expect(env.embeddedDatabase).toBe(true)
    expect(env.queueConnection).toBe('sync')
    expect(env.mail).toMatchObject({ driver: 'log', port: 2525, encryption: 'null' })
    expect(env.oauth.allowedProviders).toEqual(['github', 'google'])
    expect(env.redisUrl).toBeUndefined()
  })

  it('derives BASE_URL from PORT and trims a trailing slash', () => {
    expect(build({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080')
    expect(build({ BASE_URL: 'https://blog.example.com/' }).baseUrl).toBe('https://blog.example.com')
    expect(build({ BASE_URL: 'https://blog.example.com' }).secureCookies).toBe(true)
  })

  it.each([
    [{ BASE_URL: 'not a url' }, 'BASE_URL'],
    [{ BASE_URL: 'ftp://example.com' }, 'BASE_URL'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ QUEUE_CONNECTION: 'redis' }, 'QUEUE_CONNECTION'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL'],
    [{ MAIL_DRIVER: 'sendmail' }, 'MAIL_DRIVER'],
    [{ MAIL_ENCRYPTION: 'starttls' }, 'MAIL_ENCRYPTION'],
    [{ MAIL_FROM_ADDRESS: 'nobody' }, 'MAIL_FROM_ADDRESS'],
    [{ OAUTH_ALLOWED_PROVIDERS: 'github,myspace' }, 'OAUTH_ALLOWED_PROVIDERS'],
    [{ PAYLOAD_SECRET: 'short' }, 'PAYLOAD_SECRET'],
    [{ SEED_PASSWORD: 'abc' }, 'SEED_PASSWORD'],
    [{ APP_DEBUG: 'maybe' }, 'APP_DEBUG'],
    [{ AKISMET_ENDPOINT: 'rest.akismet.com' }, 'AKISMET_ENDPOINT'],
    [{ AKISMET_TIMEOUT_MS: '50' }, 'AKISMET_TIMEOUT_MS'],
  ])('refuses %j with a message naming %s', (extra, variable) => {
    expect(failure(extra)).toContain(`${variable}`)
  })

  it('requires PAYLOAD_SECRET in production', () => {
    const message = (() => {
      try {
        buildEnv({ DATA_DIR: '/tmp/x', NODE_ENV: 'production' } as unknown as NodeJS.ProcessEnv)
      } catch (error) {
        return (error as Error).message
      }
      return ''
    })()
    expect(message).toMatch(/^PAYLOAD_SECRET: is required/)
  })

  it('does not require the secret while `next build` runs', () => {
    expect(() => buildEnv({ DATA_DIR: '/tmp/x', NODE_ENV: 'production', NEXT_PHASE: 'phase-production-build' } as unknown as NodeJS.ProcessEnv)).not.toThrow()
  })

  it('allows private outbound targets only outside production (OUTBOUND_ALLOW_PRIVATE)', () => {
    expect(build({}).outbound).toEqual({ allowPrivate: false })
    expect(build({ OUTBOUND_ALLOW_PRIVATE: 'true' }).outbound).toEqual({ allowPrivate: true })
    expect(failure({ NODE_ENV: 'production', OUTBOUND_ALLOW_PRIVATE: 'true' })).toMatch(/^OUTBOUND_ALLOW_PRIVATE: must not be true when NODE_ENV=production/)
    expect(failure({ OUTBOUND_ALLOW_PRIVATE: 'maybe' })).toMatch(/OUTBOUND_ALLOW_PRIVATE/)
    expect(build({ NODE_ENV: 'production', OUTBOUND_ALLOW_PRIVATE: 'false' }).outbound.allowPrivate).toBe(false)
  })

  it('never seeds or pushes the schema in production', () => {
    const env = build({ NODE_ENV: 'production', DB_PUSH: 'true' })
    expect(env.seedOnStart).toBe(false)
    expect(env.dbPush).toBe(false)
  })

  it('names both variables when MAIL_FROM_ADDRESS differs from MAIL_USERNAME', () => {
    const message = failure({ MAIL_USERNAME: 'blog@example.com', MAIL_FROM_ADDRESS: 'other@example.com' })
    expect(message).toContain('MAIL_FROM_ADDRESS')
    expect(message).toContain('MAIL_USERNAME')
  })

  it('asks Akismet only with a key: off by default, an endpoint override and a 1.5 s limit', () => {
    expect(build({}).akismet).toEqual({ key: undefined, endpoint: undefined, timeoutMs: 1500 })
    expect(build({ AKISMET_KEY: ' ' }).akismet.key).toBeUndefined()
    expect(build({ AKISMET_KEY: 'abc123', AKISMET_ENDPOINT: 'http://127.0.0.1:9/', AKISMET_TIMEOUT_MS: '300' }).akismet).toEqual({ key: 'abc123', endpoint: 'http://127.0.0.1:9', timeoutMs: 300 })
  })

  it('uses implicit TLS on port 465', () => {
    expect(build({ MAIL_DRIVER: 'smtp', MAIL_PORT: '465' }).mail.encryption).toBe('ssl')
  })
})

describe('.env', () => {
  it('is loaded by getEnv() from the working directory, and never overrides a variable already set', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const path = await import('node:path')
    const { vi } = await import('vitest')
    const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-dotenv-'))
    writeFileSync(path.join(dir, '.env'), 'BASE_URL=https://from-dotenv.test/\nSITEMAP_MAX_URLS=7\nPORT=4100\nPAYLOAD_SECRET=dotenv-secret-long-enough\n')
    const saved = { ...process.env }
    const cwd = process.cwd()
    try {
      for (const name of ['BASE_URL', 'SITEMAP_MAX_URLS', 'PAYLOAD_SECRET']) delete process.env[name]
      Object.assign(process.env, { PORT: '4200', DATA_DIR: dir, NODE_ENV: 'test' })
      process.chdir(dir)
      vi.resetModules() // a fresh env module: nothing read or cached yet
      const { getEnv } = await import('../../src/lib/env')
      const env = getEnv()
      expect({ baseUrl: env.baseUrl, sitemapMaxUrls: env.sitemapMaxUrls, port: env.port }).toEqual({
        baseUrl: 'https://from-dotenv.test',
        sitemapMaxUrls: 7,
        port: 4200, // set in the environment: .env's 4100 does not override it
      })
    } finally {
      process.chdir(cwd)
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
      Object.assign(process.env, saved)
    }
  })
})

describe('sign-in providers', () => {
  const github = { GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' }

  it('offers an allowed provider only with both credentials, its callback made absolute from BASE_URL', () => {
    expect(build({}).oauth.providers).toEqual([])
    const env = build({ ...github, BASE_URL: 'https://blog.example.test/' })
    expect(env.oauth.providers).toEqual([expect.objectContaining({ id: 'github', clientId: 'id', redirectUri: 'https://blog.example.test/login/github/callback' })])
    // Configured but not allowed: not offered.
    expect(build({ ...github, OAUTH_ALLOWED_PROVIDERS: 'google' }).oauth.providers).toEqual([])
    expect(build({ OAUTH_ALLOWED_PROVIDERS: 'twitter', TWITTER_CLIENT_ID: 'i', TWITTER_CLIENT_SECRET: 's', TWITTER_REDIRECT: '/login/twitter/callback' }).oauth.providers[0]?.redirectUri).toBe(
      'http://localhost:3000/login/twitter/callback',
    )
  })

  it.each([
    [{ GITHUB_CLIENT_ID: 'id' }, 'GITHUB_CLIENT_SECRET'],
    [{ GITHUB_CLIENT_SECRET: 'secret' }, 'GITHUB_CLIENT_ID'],
    [{ ...github, GITHUB_REDIRECT: 'https://evil.test/login/github/callback' }, 'GITHUB_REDIRECT'],
    [{ ...github, GITHUB_TOKEN_URL: 'http://tokens.example.test/token' }, 'GITHUB_TOKEN_URL'],
    [{ OAUTH_ALLOWED_PROVIDERS: 'oidc', OIDC_CLIENT_ID: 'id', OIDC_CLIENT_SECRET: 's' }, 'OIDC_ISSUER'],
    [{ OAUTH_ALLOWED_PROVIDERS: 'github,microsoft' }, 'OAUTH_ALLOWED_PROVIDERS'],
  ])('stops the start on %o, naming %s', (extra, variable) => {
    expect(failure(extra as Record<string, string>)).toContain(variable)
  })

  it('accepts endpoint overrides over https, or plain http on loopback only', () => {
    const env = build({ ...github, GITHUB_TOKEN_URL: 'http://127.0.0.1:4567/token', GITHUB_API_URL: 'https://ghe.example.test/api/v3/' })
    expect(env.oauth.providers[0]).toMatchObject({ tokenUrl: 'http://127.0.0.1:4567/token', apiUrl: 'https://ghe.example.test/api/v3' })
  })
})
