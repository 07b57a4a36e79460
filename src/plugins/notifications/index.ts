/**
 * In-site and e-mail notifications, as one feature: the Notifications
 * collection, the reply hook that enqueues `notify-article-author`, the job
 * itself and the `recount-unread-notifications` command. Remove this plugin and replies notify nobody; nothing else changes.
 */
import type { CollectionConfig, Config, Plugin } from 'payload'

import { Notifications } from '../../../collections/Notifications'
import { addCommands, addJobs } from '../../../jobs/commands'
import { addToConfig } from '../addToConfig'
import { notifyArticleAuthor, type NotifyArticleAuthorData } from './notifyArticleAuthor'
import { notifyOnReply } from './notifyOnReply'
import { recountUnreadCommand } from './recountUnreadCommand'

declare module '../../../jobs/definitions' {
  interface JobData {
    'notify-article-author': NotifyArticleAuthorData
  }
}

/** The replies collection, with the hook that tells the article's author. */
function withReplyHook(collection: CollectionConfig): CollectionConfig {
  if (collection.slug !== 'replies') return collection
  const hooks = collection.hooks ?? {}
  return { ...collection, hooks: { ...hooks, afterChange: [...(hooks.afterChange ?? []), notifyOnReply] } }
}

export const notificationsPlugin = (): Plugin => (config: Config): Config => {
  if (!config.collections?.some((c) => c.slug === 'replies')) {
    throw new Error('notificationsPlugin: add it after the plugin that adds the replies collection (contentPlugin)')
  }
  const withCollection = addToConfig({ collections: [Notifications] })(config) as Config
  const withHook = { ...withCollection, collections: withCollection.collections!.map(withReplyHook) }
  const withJob = addJobs(withHook, { 'notify-article-author': { handler: notifyArticleAuthor, tries: 5 } })
  return addCommands(withJob, [recountUnreadCommand])
}
