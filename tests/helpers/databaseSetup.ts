/**
 * Global setup: find or start PostgreSQL, and build (once per migration set)
 * a template database with every migration applied. Each test file then
 * clones it with CREATE DATABASE … TEMPLATE, which takes milliseconds.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

import type { TestProject } from 'vitest/node'

import { TRUST_TEST_READERS_SQL } from './moderation'
import { adminQuery, configuredServer, startEmbeddedTestServer, type ServerInfo } from './postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    database: { adminUrl: string; template: string; urlPattern: string }
  }
}

type Shared = { info: ServerInfo; template: string; stop?: () => Promise<void>; users: number }
const g = globalThis as unknown as { __inkwellDatabase?: Promise<Shared> }

function migrationsFingerprint(): string {
  const hash = createHash('sha256')
  for (const dir of ['src/migrations', 'src/access']) {
    for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(path.join(dir, file)))
  }
  hash.update(TRUST_TEST_READERS_SQL)
  return hash.digest('hex').slice(0, 12)
}

/** Applies the committed migrations to `databaseUrl` (scripts/migrate.ts in a child process). */
export function migrate(databaseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/migrate.ts'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, BASE_URL: 'http://localhost:3000', NODE_ENV: 'test', LOG_LEVEL: 'warn', PAYLOAD_SECRET: 'test-secret-not-for-production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (c) => (output += c))
    child.stderr.on('data', (c) => (output += c))
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`migrations failed:\n${output}`))))
  })
}

function processIsAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function prepare(): Promise<Shared> {
  let info = configuredServer()
  let stop: (() => Promise<void>) | undefined
  if (!info) {
    const embedded = await startEmbeddedTestServer()
    info = embedded.info
    stop = embedded.stop
  }
  // Leftovers of crashed runs: test databases are named after the process that
  // made them, so only those whose process is gone are dropped; other test
  // runs on the same server keep theirs.
  const leftovers = await adminQuery(info.adminUrl, `select datname from pg_database where datname like 'inkwell\\_test\\_%' or datname like 'inkwell\\_tpl\\_%\\_building\\_%'`)
  for (const { datname } of leftovers.rows as { datname: string }[]) {
    // inkwell_test_<pid>_… or inkwell_tpl_<fingerprint>_building_<pid> (the pid is last there).
    const pid = Number((datname.match(/_building_(\d+)$/) ?? datname.match(/^inkwell_test_(\d+)_/))?.[1])
    if (!processIsAlive(pid)) {
      await adminQuery(info.adminUrl, `drop database if exists "${datname}" with (force)`)
    }
  }

  const template = `inkwell_tpl_${migrationsFingerprint()}`
  const exists = await adminQuery(info.adminUrl, `select 1 from pg_database where datname = '${template}'`)
  if (!exists.rowCount) {
    // Built under another name and renamed, so a crash never leaves a half-migrated template.
    const building = `${template}_building_${process.pid}`
    await adminQuery(info.adminUrl, `create database "${building}"`)
    await migrate(info.urlFor(building))
    await adminQuery(info.urlFor(building), TRUST_TEST_READERS_SQL)
    await adminQuery(info.adminUrl, `alter database "${building}" rename to "${template}"`)
  }
  return { info, template, stop, users: 0 }
}

export default async function setup(project: TestProject) {
  g.__inkwellDatabase ??= prepare()
  const shared = await g.__inkwellDatabase
  shared.users++
  project.provide('database', { adminUrl: shared.info.adminUrl, template: shared.template, urlPattern: shared.info.urlFor('__DB__') })
  return async () => {
    if (--shared.users > 0) return
    // Project groups may set up and tear down one after another: a later group prepares afresh.
    g.__inkwellDatabase = undefined
    await shared.stop?.()
  }
}
