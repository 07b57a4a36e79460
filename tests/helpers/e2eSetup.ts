/**
 * Global setup for browser tests: Debian's Chromium (installed by the
 * project's own script when missing) and a current production build.
 * Both e2e projects (vitest.config.ts) name this file and Vitest runs it for
 * each: one promise in the main process makes that one install and one build.
 */
import { spawnSync } from 'node:child_process'

import { buildIfStale } from '../../src/lib/build'

const g = globalThis as unknown as { __inkwellE2eSetup?: Promise<void> }

async function prepare(): Promise<void> {
  const chromium = spawnSync('bash', ['scripts/ensure-chromium.sh'], { stdio: 'inherit' })
  if (chromium.status !== 0) throw new Error('Could not install Chromium (scripts/ensure-chromium.sh)')
  process.env.PAYLOAD_SECRET ??= 'test-secret-not-for-production'
  await buildIfStale((line) => console.log(line))
}

export default async function setup() {
  await (g.__inkwellE2eSetup ??= prepare())
}
