/**
 * Global setup for browser tests: Debian's Chromium (installed by the
 * project's own script when missing) and a current production build.
 */
import { spawnSync } from 'node:child_process'

import { buildIfStale } from '../../src/lib/build'

export default async function setup() {
  const chromium = spawnSync('bash', ['scripts/ensure-chromium.sh'], { stdio: 'inherit' })
  if (chromium.status !== 0) throw new Error('Could not install Chromium (scripts/ensure-chromium.sh)')
  process.env.PAYLOAD_SECRET ??= 'test-secret-not-for-production'
  await buildIfStale((line) => console.log(line))
}
