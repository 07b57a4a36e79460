/**
 * Removing an optional plugin removes its feature and breaks nothing else:
 * for each one, Payload is composed without it, boots on a fresh database,
 * serves the core of the blog (an author publishes an article, a reader
 * replies, the public reads both, with access enforced) and shuts down;
 * the reader site's data modules (frontend/src/lib/api) answer every read a
 * page makes, and report the plugin's parts as absent so pages leave them out.
 */
import { handleEndpoints, type Payload } from 'payload'
import { describe, expect, it } from 'vitest'

import * as site from '../../frontend/src/lib/api'
import { installSitePayload } from '../../src/lib/sitePayload'
import type { User } from '../../src/payload-types'

import { registeredCommands } from '../../jobs/commands'
import { syncJobsIdle } from '../../jobs/queue'
import { OPTIONAL_PLUGINS, type OptionalPlugin } from '../../src/plugins'
import { createTestPayload } from '../helpers/payload'
import { createCast } from '../helpers/users'

/** What the composed config holds: collections, endpoint paths and registered work. */
function partsOf(payload: Payload) {
  const { commands, schedules, jobs } = registeredCommands(payload)
  const endpoints = [...(payload.config.endpoints || []), ...payload.config.collections.flatMap((c) => c.endpoints || [])]
  return {
    collection: (slug: string) => payload.config.collections.some((c) => c.slug === slug),
    endpoint: (path: string) => endpoints.some((e) => e.path === path),
    work: (name: string) => [...commands, ...schedules].some((c) => c.name === name) || name in jobs,
    articleField: (name: string) => payload.config.collections.find((c) => c.slug === 'articles')!.flattenedFields.some((f) => f.name === name),
  }
}

/** A part each plugin adds: present in the full composition, gone when the plugin is left out. */
const TRACES: Record<OptionalPlugin, (parts: ReturnType<typeof partsOf>) => boolean> = {
  oauth: (p) => p.collection('oauth-identities'),
  userSwitch: (p) => p.collection('user-switches') || p.endpoint('/user-switch'),
  notifications: (p) => p.collection('notifications') || p.work('notify-article-author'),
  search: (p) => p.endpoint('/search') || p.work('reindex-search'),
  activity: (p) => p.work('calculate-active-users'),
  dashboard: (p) => p.endpoint('/dashboard'),
  seo: (p) => p.articleField('meta'),
  accessTokens: (p) => p.collection('access-tokens'),
  webhooks: (p) => p.collection('webhooks') || p.work('deliver-webhook'),
  moderation: (p) => p.collection('moderation-events'),
  import: (p) => p.collection('import-reports') || p.collection('redirects') || p.work('import:wordpress'),
  backup: (p) => p.work('backup') || p.work('restore'),
}

/** Every read the site's pages make for a signed-in reader, on this composition: none throws, and the plugin's parts are gone. */
async function readsOfTheReaderSite(payload: Payload, without: OptionalPlugin, me: User, article: { id: number; viewCount?: number | null }) {
  installSitePayload({ payload, rest: (request) => handleEndpoints({ config: payload.config, request }) })
  for (const plugin of OPTIONAL_PLUGINS) expect(site.composed(plugin), plugin).toBe(plugin !== without)
  const features = site.siteFeatures()
  for (const [feature, shown] of Object.entries(features)) expect(shown, feature).toBe(feature !== without)

  await site.getLayoutData()
  expect((await site.listArticles({ page: 1 })).docs.length).toBeGreaterThan(0)
  expect(await site.getArticle(article.id)).toBeTruthy()
  // Replies as the article page and the profile read them (they select the import plugin's guestName when it is there).
  expect((await site.listThreads(article.id)).total).toBeGreaterThan(0)
  expect((await site.listReplies({ author: me.id })).docs.length).toBeGreaterThanOrEqual(0)
  expect((await site.viewCounts([article])).get(article.id)).toBe(0)
  const follow = await site.followOf(me, article.id)
  const notifications = await site.listMyNotifications(me)
  await site.markNotificationsRead(me, notifications.docs.map((n) => n.id))
  const tokens = await site.listMyAccessTokens(me)
  const linked = await site.mySignInMethods(me)
  const switcher = await site.getUserSwitcher(new Request('http://blog.test/'), me)
  const active = await site.getActiveUsers()
  const lookup = await site.unsubscribeLookup('not-a-token')
  expect(lookup.status).toBe('invalid')
  if (without === 'notifications') expect([follow, notifications.totalDocs]).toEqual([null, 0])
  if (without === 'accessTokens') expect(tokens).toEqual([])
  if (without === 'oauth') expect([linked.linked, site.signInProviders()]).toEqual([[], []])
  if (without === 'userSwitch') expect(switcher).toBeNull()
  if (without === 'activity') expect(active).toBeNull()
  if (without !== 'search') expect('result' in (await site.search({ q: 'text' }))).toBe(true)
}

describe.each(OPTIONAL_PLUGINS.map((name) => [name]))('without the %s plugin', (name) => {
  it('boots, publishes an article with a reply, and shuts down', { timeout: 180_000 }, async () => {
    const t = await createTestPayload({ QUEUE_CONNECTION: 'sync' }, { plugins: (compose, env) => compose(env, { without: [name] }) })
    try {
      const { payload } = t
      expect(TRACES[name](partsOf(payload)), `${name} is still composed`).toBe(false)

      const cast = await createCast(payload)
      const article = await payload.create({
        collection: 'articles',
        data: { title: `Without ${name}`, format: 'markdown', markdown: 'Some *text*.', status: 'published' },
        overrideAccess: false,
        user: cast.author,
      })
      expect(article.slug).toBe(`without-${name.toLowerCase()}`)
      await payload.create({ collection: 'replies', data: { article: article.id, body: 'A reply.' }, overrideAccess: false, user: cast.reader })
      await syncJobsIdle()

      const read = await payload.findByID({ collection: 'articles', id: article.id, overrideAccess: false, depth: 0 })
      expect(read.replyCount).toBe(1)
      const replies = await payload.find({ collection: 'replies', where: { article: { equals: article.id } }, overrideAccess: false })
      expect(replies.docs.map((r) => r.body)).toEqual(['A reply.'])
      await expect(
        payload.update({ collection: 'articles', id: article.id, data: { title: 'Taken over' }, overrideAccess: false, user: cast.reader }),
      ).rejects.toThrow()

      await readsOfTheReaderSite(payload, name, cast.reader as User, read)
    } finally {
      await t.destroy()
    }
  })
})

describe('the full composition', () => {
  it('has every trace the removal tests look for', async () => {
    const t = await createTestPayload({ QUEUE_CONNECTION: 'sync' }, { plugins: (compose, env) => compose(env) })
    try {
      for (const name of OPTIONAL_PLUGINS) expect(TRACES[name](partsOf(t.payload)), name).toBe(true)
    } finally {
      await t.destroy()
    }
  })
})
