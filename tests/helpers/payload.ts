/**
 * A Payload instance on a database of its own, cloned from the migrated
 * template. One per test file; destroy() drops the database.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { getPayload, type Payload, type Plugin } from 'payload'
import { inject } from 'vitest'

import { closePayload } from '../../src/lib/boot'
import { buildEnv } from '../../src/lib/env'
import { adminQuery } from './postgres'

export type TestPayload = {
  payload: Payload
  databaseUrl: string
  databaseName: string
  /** Payload's instance cache key (handleEndpoints' payloadInstanceCacheKey): the database's name unless `key` was given. */
  cacheKey: string
  destroy: () => Promise<void>
}

export async function createTestDatabase(): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const { adminUrl, template, urlPattern } = inject('database')
  const name = `inkwell_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`
  await adminQuery(adminUrl, `create database "${name}" template "${template}"`)
  return {
    name,
    url: urlPattern.replace('__DB__', name),
    drop: async () => void (await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`)),
  }
}

export type TestPayloadOptions = {
  /**
   * Composes the instance from another plugin list than the app's: called
   * with `inkwellPlugins` and this call's typed env, it returns the list, e.g.
   * `(compose, env) => compose(env, { without: ['search'] })`. The config is
   * then built for this call alone (`inkwellConfig` in payload.config.ts)
   * instead of being the app's `payload.config` module.
   */
  plugins?: (compose: typeof import('../../src/plugins').inkwellPlugins, env: ReturnType<typeof buildEnv>) => Plugin[]
  /** A migrated database of the test's own (a server it starts and stops), instead of a clone of the template. */
  database?: Awaited<ReturnType<typeof createTestDatabase>>
  /** Another instance cache key, for a second instance on the same database (another web process). */
  key?: string
}

export async function createTestPayload(env: Record<string, string> = {}, options: TestPayloadOptions = {}): Promise<TestPayload> {
  const database = options.database ?? (await createTestDatabase())
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    NODE_ENV: 'test',
    // Vitest sets BASE_URL to Vite's '/', which is not a site address.
    BASE_URL: 'http://localhost:3000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    PAYLOAD_SECRET: 'test-secret-not-for-production',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inkwell-test-')),
    // Retries of jobs that talk to other systems start 1 s apart in tests (5 s in production); the 24 h window stays.
    JOB_RETRY_DELAY_SECONDS: '1',
    ...env,
  })
  const config = options.plugins ? await composedConfig(options.plugins) : (await import('../../payload.config')).default
  const cacheKey = options.key ?? database.name
  const payload = await getPayload({ config, key: cacheKey })
  return {
    payload,
    databaseUrl: database.url,
    databaseName: database.name,
    cacheKey,
    destroy: async () => {
      await closePayload(payload)
      await database.drop()
    },
  }
}

async function composedConfig(plugins: NonNullable<TestPayloadOptions['plugins']>) {
  const [{ inkwellConfig }, { inkwellPlugins }] = await Promise.all([import('../../payload.config'), import('../../src/plugins')])
  const env = buildEnv(process.env)
  return inkwellConfig(env, plugins(inkwellPlugins, env))
}
