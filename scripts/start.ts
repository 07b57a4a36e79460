/**
 * `npm start`: the whole site on one origin. Builds what changed, starts the
 * embedded PostgreSQL unless DATABASE_URL is set, applies migrations, seeds
 * demo content into an empty development database, then serves.
 */
import { bootPayload, closePayload, loadEnvOrExit } from '../src/lib/boot'
import { viewCounterOf } from '../src/plugins/activity/views'
import { buildIfStale } from '../src/lib/build'
import { cjkFontInstalled } from '../src/plugins/content/shareCard'
import { seedDemo } from '../src/seed'
import { startWebServer } from '../src/server'

const started = Date.now()
const log = (message: string) => console.log(message)
const env = loadEnvOrExit()
// The Next bundle reads the same configuration; make the development secret visible to it.
process.env.PAYLOAD_SECRET ??= env.payloadSecret

if (!process.argv.includes('--no-build')) await buildIfStale(log)

const { payload, database } = await bootPayload({ log })
let seeded = false
if (env.seedOnStart && (await payload.count({ collection: 'users', overrideAccess: true })).totalDocs === 0) {
  await seedDemo(payload, { password: env.seedPassword, log })
  seeded = true
}
// The activity plugin made the counter (Redis or PostgreSQL); the web server counts every article view it serves, cached or not.
const web = await startWebServer(env, { log, views: viewCounterOf(payload) })
if (!(await cjkFontInstalled())) log('  ! No CJK font found: share images draw Chinese, Japanese and Korean as boxes. Run npm run ensure:fonts.')

log(`
  Inkwell is running (${((Date.now() - started) / 1000).toFixed(1)} s)

    Site    ${env.baseUrl}/
    Admin   ${env.baseUrl}/admin
    API     ${env.baseUrl}/api
    Health  ${env.baseUrl}/healthz
    Database ${env.embeddedDatabase ? `embedded PostgreSQL (${env.dataDir}/postgres)` : 'DATABASE_URL'}
${
  env.production
    ? ''
    : `
  Demo logins${seeded ? '' : ' (if the demo was seeded)'}, password "${env.seedPassword}":
    owner@inkwell.test (site owner) · admin@inkwell.test (administrator)
    author@inkwell.test · author2@inkwell.test (authors) · reader1@inkwell.test … reader10 (readers)
`
}`)

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  log(`\n${signal}: shutting down…`)
  // In-flight requests get 5 s, then in-flight jobs up to 20 s (jobs/worker.ts; a pg-boss job still
  // running then is retried by another worker): exit by force only after both.
  const force = setTimeout(() => process.exit(1), 25_000)
  force.unref()
  await web.close()
  await closePayload(payload) // the last views reach the database; in-flight jobs finish or return to the queue
  await database.stop().catch(() => {})
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
