/**
 * In-site and e-mail notifications, as one feature: the Notifications and
 * Follows collections, the reply hook that enqueues `notify-article-author`
 * (the article's author) and `notify-reply-thread` (the answered reply's
 * author and the article's followers), the jobs themselves, the signed
 * unsubscribe endpoint and the `recount-unread-notifications` command.
 * Remove this plugin and replies notify nobody; nothing else changes.
 */
import type { CollectionConfig, Config, Plugin } from 'payload'

import { Follows } from '../../../collections/Follows'
import { Notifications } from '../../../collections/Notifications'
import { addCommands, addJobs } from '../../../jobs/commands'
import { addToConfig } from '../addToConfig'
import { withPluginOptions } from '../pluginOptions'
import { notifyArticleAuthor, type NotifyArticleAuthorData } from './notifyArticleAuthor'
import { notifyOnReply } from './notifyOnReply'
import { NOTIFICATIONS_KEY, type NotificationsOptions } from './options'
import { notifyReplyThread, type NotifyReplyThreadData } from './notifyReplyThread'
import { recountUnreadCommand } from './recountUnreadCommand'
import { unsubscribeEndpoint } from './unsubscribeEndpoint'

declare module '../../../jobs/definitions' {
  interface JobData {
    'notify-article-author': NotifyArticleAuthorData
    'notify-reply-thread': NotifyReplyThreadData
  }
}

/** The replies collection, with the hook that tells the article's author. */
function withReplyHook(collection: CollectionConfig): CollectionConfig {
  if (collection.slug !== 'replies') return collection
  const hooks = collection.hooks ?? {}
  return { ...collection, hooks: { ...hooks, afterChange: [...(hooks.afterChange ?? []), notifyOnReply] } }
}

export const notificationsPlugin = (options: NotificationsOptions): Plugin => (config: Config): Config => {
  if (!config.collections?.some((c) => c.slug === 'replies')) {
    throw new Error('notificationsPlugin: add it after the plugin that adds the replies collection (contentPlugin)')
  }
  const follows: CollectionConfig = { ...Follows, endpoints: [unsubscribeEndpoint] }
  const withCollection = withPluginOptions(addToConfig({ collections: [Notifications, follows] })(config) as Config, NOTIFICATIONS_KEY, options)
  const withHook = { ...withCollection, collections: withCollection.collections!.map(withReplyHook) }
  const withJob = addJobs(withHook, {
    // They send mail: retried for the retry window (24 h by default), so an SMTP outage loses nothing.
    // Several at once per worker over the pooled SMTP transport: mail waits on the network (≥ 50 mails/s, bench/mail-throughput.ts).
    'notify-article-author': { handler: notifyArticleAuthor, external: true, concurrency: options.mailConcurrency ?? 10 },
    'notify-reply-thread': { handler: notifyReplyThread, external: true, concurrency: options.mailConcurrency ?? 10 },
  })
  return addCommands(withJob, [recountUnreadCommand])
}
