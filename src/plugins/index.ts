/**
 * The whole Inkwell feature set, visible in one place. Each entry is a Payload
 * plugin `(config) => config`; order matters only where a plugin decorates
 * collections another one added (SEO after content).
 */
import path from 'node:path'
import type { Plugin } from 'payload'

import type { Env } from '../lib/env'
import { accountsPlugin } from './accounts'
import { contentPlugin } from './content'
import { jobsPlugin } from './jobs'
import { listLimitsPlugin } from './listLimits'
import { renderCachePlugin } from './renderCache'
import { articleSeoPlugin } from './seo'
import { sitePlugin } from './site'

export function inkwellPlugins(env: Env): Plugin[] {
  return [
    accountsPlugin({ secureCookies: env.secureCookies, baseUrl: env.baseUrl, avatarMaxBytes: env.avatarMaxBytes, verifyEmail: env.verifyEmail }),
    contentPlugin({ mediaDir: path.join(env.dataDir, 'media') }),
    sitePlugin(),
    jobsPlugin(),
    articleSeoPlugin({ siteName: 'Inkwell' }),
    // Last: they decorate the collections the plugins above added.
    renderCachePlugin(),
    listLimitsPlugin(),
  ]
}
