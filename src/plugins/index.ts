/**
 * The whole Inkwell feature set, visible in one place. Each entry is a Payload
 * plugin `(config) => config`; order matters only where a plugin decorates
 * collections another one added (SEO after content).
 */
import path from 'node:path'
import type { Plugin } from 'payload'

import type { Env } from '../lib/env'
import { accessTokensPlugin } from './accessTokens'
import { accountsPlugin } from './accounts'
import { activityPlugin } from './activity'
import { contentPlugin } from './content'
import { dashboardPlugin } from './dashboard'
import { jobsPlugin } from './jobs'
import { notificationsPlugin } from './notifications'
import { oauthPlugin } from './oauth'
import { listLimitsPlugin } from './listLimits'
import { renderCachePlugin } from './renderCache'
import { searchPlugin } from './search'
import { articleSeoPlugin } from './seo'
import { guardsPlugin } from './guards'
import { sitePlugin } from './site'
import { slugsPlugin } from './slugs'
import { userSwitchPlugin } from './userSwitch'

export function inkwellPlugins(env: Env): Plugin[] {
  return [
    accountsPlugin({ secureCookies: env.secureCookies, baseUrl: env.baseUrl, avatarMaxBytes: env.uploadMaxBytes, verifyEmail: env.verifyEmail, sessionMaxAgeSeconds: env.sessionMaxAgeSeconds }),
    oauthPlugin({
      providers: env.oauth.providers,
      timeoutMs: env.oauth.timeoutMs,
      secureCookies: env.secureCookies,
      verifyEmail: env.verifyEmail,
      baseUrl: env.baseUrl,
      avatarMaxBytes: env.uploadMaxBytes,
    }),
    contentPlugin({ mediaDir: path.join(env.dataDir, 'media') }),
    sitePlugin(),
    // Required: URLs are made of slugs.
    slugsPlugin({
      collections: { articles: { from: 'title', trackOrigin: true }, categories: { from: 'name' }, tags: { from: 'name' } },
      translate: env.translate,
    }),
    userSwitchPlugin({ debug: env.debug, production: env.production }),
    notificationsPlugin(),
    jobsPlugin({
      connection: env.queueConnection,
      databaseUrl: env.databaseUrl,
      work: env.worker,
      timeZone: env.timeZone,
      syncRetryScale: env.syncRetryScale,
    }),
    searchPlugin(),
    activityPlugin({ redisUrl: env.redisUrl, redisKeyPrefix: env.redisKeyPrefix, redisTimeoutMs: env.redisTimeoutMs, timeZone: env.timeZone }),
    dashboardPlugin({ timeZone: env.timeZone }),
    articleSeoPlugin({ siteName: 'Inkwell' }),
    // Last: they decorate the collections the plugins above added.
    renderCachePlugin(),
    listLimitsPlugin(),
    // Sees every collection and endpoint: the token strategy and the rules a token obeys everywhere.
    accessTokensPlugin(),
    // After every plugin that adds collections: rules all of them obey (server-owned fields, sort paths, text).
    guardsPlugin(),
  ]
}
