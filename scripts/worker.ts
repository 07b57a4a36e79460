/** `npm run worker`: only the queue workers and schedules, no web server. Run as many as needed. */
import { bootPayload, closePayload, loadEnvOrExit } from '../src/lib/boot'
import { startQueue } from '../jobs/worker'

const env = loadEnvOrExit()
if (env.queueConnection !== 'pgboss') {
  console.error('✖ QUEUE_CONNECTION=sync runs jobs inside the web process; set QUEUE_CONNECTION=pgboss to run workers.')
  process.exit(78)
}
const { payload, database } = await bootPayload()
const queue = await startQueue(payload, env, { work: true, log: console.log })
console.log('Inkwell worker is running')

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal}: finishing in-flight jobs…`)
  await queue.stop()
  await closePayload(payload)
  await database.stop().catch(() => {})
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
