/**
 * Removing an optional plugin removes its feature and breaks nothing else:
 * for each one, Payload is composed without it, boots on a fresh database,
 * serves the core of the blog (an author publishes an article, a reader
 * replies, the public reads both, with access enforced) and shuts down.
 */
import type { Payload } from 'payload'
import { describe, expect, it } from 'vitest'

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
