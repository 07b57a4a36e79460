/**
 * `npm run worker`: only the queue workers and schedules, no web server. Run as many as needed.
 * The jobs plugin starts the workers with Payload; this script only keeps the process up.
 */
import { bootPayload, closePayload, loadEnvOrExit } from '../src/lib/boot'

// This process exists to work, whatever WORKER says for the web processes sharing the configuration.
const overrides = { worker: true }
const env = loadEnvOrExit(overrides)
if (env.queueConnection !== 'pgboss') {
  console.error('✖ QUEUE_CONNECTION=sync runs jobs inside the web process; set QUEUE_CONNECTION=pgboss to run workers.')
  process.exit(78)
}
const { payload, database } = await bootPayload({ overrides })
console.log('Inkwell worker is running')

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal}: finishing in-flight jobs…`)
  await closePayload(payload) // stops the queue gracefully, then the database connections
  await database.stop().catch(() => {})
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
