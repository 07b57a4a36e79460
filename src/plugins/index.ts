/**
 * The whole Inkwell feature set, visible in one place. Each entry is a Payload
 * plugin `(config) => config`; order matters only where a plugin decorates
 * collections another one added (SEO after content).
 */
import path from 'node:path'
import type { Plugin } from 'payload'

import type { Env } from '../lib/env'
import { RATE_LIMITS_KEY, type RateLimitSettings } from '../lib/rateLimit'
import { accessTokensPlugin } from './accessTokens'
import { accountsPlugin } from './accounts'
import { activityPlugin } from './activity'
import { backupPlugin } from './backup'
import { contentPlugin } from './content'
import { dashboardPlugin } from './dashboard'
import { draftsPlugin } from './drafts'
import { jobsPlugin } from './jobs'
import { fieldLabelsPlugin, languagesPlugin } from './languages'
import { notificationsPlugin } from './notifications'
import { oauthPlugin } from './oauth'
import { COMPOSITION_KEY, withPluginOptions } from './pluginOptions'
import { listLimitsPlugin } from './listLimits'
import { moderationPlugin } from './moderation'
import { renderCachePlugin } from './renderCache'
import { searchPlugin } from './search'
import { articleSeoPlugin } from './seo'
import { guardsPlugin } from './guards'
import { importPlugin } from './import'
import { sitePlugin } from './site'
import { slugsPlugin } from './slugs'
import { storagePlugin } from './storage'
import { userSwitchPlugin } from './userSwitch'
import { webhooksPlugin } from './webhooks'

/**
 * Plugins a site may leave out (`inkwellPlugins(env, { without: ['search'] })`):
 * the feature goes, nothing else breaks (tests/integration/plugin-removal.test.ts
 * boots without each). The others are what the rest stands on: accounts (Users,
 * the admin's user collection), content (Articles and what hangs off them),
 * site (the settings global registration and the reader site read), slugs
 * (article URLs), storage (where uploads live: its columns are part of the media schema), drafts (what "published" means: Payload's versions of
 * articles), jobs (the queue every enqueue goes through), and the rules
 * every collection obeys: renderCache (purges the server's page cache),
 * listLimits and guards (security rules), and fieldLabels (every field's admin label in both languages).
 */
export const OPTIONAL_PLUGINS = ['oauth', 'userSwitch', 'notifications', 'search', 'activity', 'dashboard', 'seo', 'accessTokens', 'webhooks', 'moderation', 'import', 'backup'] as const
export type OptionalPlugin = (typeof OPTIONAL_PLUGINS)[number]

export type CompositionOptions = {
  without?: readonly OptionalPlugin[]
  /** Plugins of your own (docs/EXTENDING.md): composed after the features, before the rules that cover every collection. */
  extra?: Plugin[]
}

export function inkwellPlugins(env: Env, { without = [], extra = [] }: CompositionOptions = {}): Plugin[] {
  const plugins = {
    accounts: accountsPlugin({ secureCookies: env.secureCookies, baseUrl: env.baseUrl, avatarMaxBytes: env.uploadMaxBytes, verifyEmail: env.verifyEmail, sessionMaxAgeSeconds: env.sessionMaxAgeSeconds }),
    oauth: oauthPlugin({
      providers: env.oauth.providers,
      timeoutMs: env.oauth.timeoutMs,
      secureCookies: env.secureCookies,
      verifyEmail: env.verifyEmail,
      baseUrl: env.baseUrl,
      avatarMaxBytes: env.uploadMaxBytes,
      outbound: env.outbound,
    }),
    content: contentPlugin({ mediaDir: path.join(env.dataDir, 'media'), links: { externalLinkRel: env.externalLinkRel, siteOrigin: new URL(env.baseUrl).origin } }),
    // Where uploads and share cards live: DATA_DIR/media and DATA_DIR/cards, or the S3 bucket (decorates content's Media).
    storage: storagePlugin({ mediaDir: path.join(env.dataDir, 'media'), cardsDir: path.join(env.dataDir, 'cards'), s3: env.s3 }),
    site: sitePlugin(),
    // The admin in English and Chinese (Payload's own translations).
    languages: languagesPlugin(),
    slugs: slugsPlugin({
      collections: { articles: { from: 'title', trackOrigin: true }, categories: { from: 'name' }, tags: { from: 'name' } },
      translate: env.translate,
    }),
    notifications: notificationsPlugin({ baseUrl: env.baseUrl, mailFromName: env.mail.fromName, mailConcurrency: 10 }),
    jobs: jobsPlugin({
      connection: env.queueConnection,
      databaseUrl: env.databaseUrl,
      work: env.worker,
      timeZone: env.timeZone,
      syncRetryScale: env.syncRetryScale,
      retry: env.jobRetry,
    }),
    search: searchPlugin(),
    activity: activityPlugin({ redisUrl: env.redisUrl, redisKeyPrefix: env.redisKeyPrefix, redisTimeoutMs: env.redisTimeoutMs, timeZone: env.timeZone }),
    dashboard: dashboardPlugin({ timeZone: env.timeZone }),
    seo: articleSeoPlugin({ siteName: 'Inkwell' }),
    webhooks: webhooksPlugin({ outbound: env.outbound }),
    moderation: moderationPlugin({ baseUrl: env.baseUrl, akismet: env.akismet }),
    import: importPlugin({ outbound: env.outbound, baseUrl: env.baseUrl, uploadMaxBytes: env.uploadMaxBytes }),
    backup: backupPlugin({ mediaDir: path.join(env.dataDir, 'media'), nightly: env.backup.dir ? { dir: env.backup.dir, cron: env.backup.cron, keep: env.backup.keep } : undefined }),
    // Last: they decorate the collections the plugins above added.
    renderCache: renderCachePlugin(),
    // After every plugin that hangs after-change hooks on articles: a draft save skips them (src/plugins/drafts).
    drafts: draftsPlugin({ baseUrl: env.baseUrl }),
    listLimits: listLimitsPlugin(),
    // Sees every collection and endpoint: the token strategy and the rules a token obeys everywhere.
    accessTokens: accessTokensPlugin(),
    // After every plugin that adds collections: a switched session's refusals and its log of acts cover all of them.
    userSwitch: userSwitchPlugin({ debug: env.debug, production: env.production }),
    // After every plugin that adds fields: each field without a label gets the catalogs' (src/plugins/languages).
    fieldLabels: fieldLabelsPlugin(),
    // After every plugin that adds collections: rules all of them obey (server-owned fields, sort paths, text).
    guards: guardsPlugin(),
  }
  const kept = Object.entries(plugins).filter(([name]) => !(without as readonly string[]).includes(name))
  const rules = kept.findIndex(([name]) => name === 'renderCache')
  // Recorded so code outside a plugin (the reader site) can leave out what belongs to a plugin left out.
  // And the rate limits, which several plugins (accounts, content) apply and none owns.
  const rateLimits: RateLimitSettings = { replyPerMinute: env.replyRateLimit, uploadsPerHour: env.uploadRateLimit, redisUrl: env.redisUrl, redisTimeoutMs: env.redisTimeoutMs }
  const record: Plugin = (config) => withPluginOptions(withPluginOptions(config, COMPOSITION_KEY, kept.map(([name]) => name)), RATE_LIMITS_KEY, rateLimits)
  return [...kept.slice(0, rules).map(([, p]) => p), ...extra, ...kept.slice(rules).map(([, p]) => p), record]
}
