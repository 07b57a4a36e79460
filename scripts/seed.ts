/**
 * `npm run seed [-- --force]`: adds the demo content (idempotent).
 * Refused in production without --force, because the demo password is public.
 */
import { bootPayload, closePayload, loadEnvOrExit } from '../src/lib/boot'
import { seedDemo } from '../src/seed'

// A one-shot process: it must not take jobs from the queue's workers.
const overrides = { worker: false }

const env = loadEnvOrExit(overrides)
if (env.production && !process.argv.includes('--force')) {
  console.error('✖ Refusing to seed demo users in production: their password is public. Pass --force if you really mean it.')
  process.exit(1)
}
const { payload, database } = await bootPayload({ overrides })
await seedDemo(payload, { password: env.seedPassword })
await closePayload(payload)
await database.stop()
process.exit(0)
