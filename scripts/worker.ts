/**
 * `npm run worker`: only the queue workers and schedules, no web server. Run as many as needed.
 * The jobs plugin starts the workers with Payload; this script only keeps the process up.
 */
import { bootPayload, closePayload, loadEnvOrExit } from '../src/lib/boot'
import { serveWorkerOperations } from '../src/server/observability'

// This process exists to work, whatever WORKER says for the web processes sharing the configuration.
const overrides = { worker: true }
const env = loadEnvOrExit(overrides)
if (env.queueConnection !== 'pgboss') {
  console.error('✖ QUEUE_CONNECTION=sync runs jobs inside the web process; set QUEUE_CONNECTION=pgboss to run workers.')
  process.exit(78)
}
const { payload, database } = await bootPayload({ overrides })
// No web server here: /metrics, /healthz and /readyz on a port of their own when asked for.
const operations = env.workerMetricsPort
  ? await serveWorkerOperations(env, env.workerMetricsPort, payload)
  : undefined
console.log(`Inkwell worker is running${env.workerMetricsPort ? ` (metrics on port ${env.workerMetricsPort})` : ''}`)

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal}: finishing in-flight jobs…`)
  operations?.ops.drain() // /readyz: 503 from now on
  await closePayload(payload) // stops the queue gracefully, then the database connections
  await database.stop().catch(() => {})
  await operations?.close()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
