/**
 * A Payload instance on a database of its own, cloned from the migrated
 * template. One per test file; destroy() drops the database.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { getPayload, type Payload } from 'payload'
import { inject } from 'vitest'

import { closePayload } from '../../src/lib/boot'
import { adminQuery } from './postgres'

export type TestPayload = { payload: Payload; databaseUrl: string; databaseName: string; destroy: () => Promise<void> }

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

export async function createTestPayload(env: Record<string, string> = {}): Promise<TestPayload> {
  const database = await createTestDatabase()
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    NODE_ENV: 'test',
    // Vitest sets BASE_URL to Vite's '/', which is not a site address.
    BASE_URL: 'http://localhost:3000',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    PAYLOAD_SECRET: 'test-secret-not-for-production',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inkwell-test-')),
    ...env,
  })
  const { default: config } = await import('../../payload.config')
  const payload = await getPayload({ config, key: database.name })
  return {
    payload,
    databaseUrl: database.url,
    databaseName: database.name,
    destroy: async () => {
      await closePayload(payload)
      await database.drop()
    },
  }
}
