/**
 * Composition only: the database, e-mail and editor adapters, and the Inkwell
 * plugins, all read from the one typed configuration.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { postgresAdapter } from '@payloadcms/db-postgres'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import { buildConfig, type Plugin } from 'payload'
import sharp from 'sharp'

import { guardPool } from './src/lib/pool'
import { getEnv, type Env } from './src/lib/env'
import { graphqlLimits } from './src/lib/graphqlLimits'
import { emailAdapter } from './src/lib/mail'
import { migrations } from './src/migrations'
import { redactingLogHooks } from './src/lib/redactCredentials'
import { inkwellPlugins } from './src/plugins'

const dirname = path.dirname(fileURLToPath(import.meta.url))
let logger: { info: (obj: unknown, msg?: string) => void } = console

/**
 * The configuration for `env` with `plugins` (by default the whole feature
 * set); tests compose other sets through it (tests/helpers/payload.ts).
 */
export const inkwellConfig = (env: Env, plugins: Plugin[] = inkwellPlugins(env)) => buildConfig({
  serverURL: env.baseUrl,
  secret: env.payloadSecret,
  admin: {
    user: 'users',
    importMap: { baseDir: dirname, importMapFile: path.resolve(dirname, 'src/app/(payload)/admin/importMap.js') },
    meta: { titleSuffix: ' · Inkwell admin' },
    // No Gravatar: the admin makes no requests to third parties.
    avatar: 'default',
  },
  routes: { admin: '/admin', api: '/api', graphQL: '/graphql' },
  db: postgresAdapter({
    pool: { connectionString: env.databaseUrl, max: env.production ? 20 : 10 },
    push: env.dbPush,
    migrationDir: path.resolve(dirname, 'src/migrations'),
    prodMigrations: migrations,
  }),
  editor: lexicalEditor(),
  email: emailAdapter(env, () => logger),
  sharp,
  // One limit for every upload, media and avatars alike (UPLOAD_MAX_BYTES); larger files get 413
  // (worded in the request's language by the guards plugin).
  upload: { limits: { fileSize: env.uploadMaxBytes } },
  csrf: [env.baseUrl],
  cors: [env.baseUrl],
  logger: {
    options: {
      level: env.logLevel,
      // No credential (an `access_token` in a URL, a Bearer value) reaches a log line.
      hooks: redactingLogHooks as never,
    },
  },
  telemetry: false,
  typescript: { outputFile: path.resolve(dirname, 'src/payload-types.ts') },
  // Depth, alias and cost limits on every GraphQL document (GRAPHQL_MAX_* settings).
  graphQL: { disablePlaygroundInProduction: true, ...graphqlLimits(env.graphql) },
  onInit: (payload) => {
    logger = payload.logger
    guardPool(payload)
  },
  plugins,
})

export default inkwellConfig(getEnv())
