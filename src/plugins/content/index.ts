import type { Config, Plugin } from 'payload'

import { Articles } from '../../../collections/Articles'
import { Categories } from '../../../collections/Categories'
import { createMedia } from '../../../collections/Media'
import { remoteFileErrorsAsBadRequestInGraphQL } from '../../../collections/Media/hooks/remoteFileErrors'
import { Replies } from '../../../collections/Replies'
import { Tags } from '../../../collections/Tags'
import { addToConfig } from '../addToConfig'
import { withPluginOptions } from '../pluginOptions'
import { CONTENT_KEY, type ContentOptions } from './options'

/** Articles with their taxonomy, replies and uploads. */
export const contentPlugin =
  (options: ContentOptions): Plugin =>
  (config: Config): Config => {
    const withCollections = addToConfig({ collections: [Articles, Categories, Tags, Replies, createMedia({ staticDir: options.mediaDir })] })(config) as Config
    // GraphQL's errors reach only the config's afterError hooks, not the collection's.
    const hooks = { ...withCollections.hooks, afterError: [...(withCollections.hooks?.afterError ?? []), remoteFileErrorsAsBadRequestInGraphQL] }
    return withPluginOptions({ ...withCollections, hooks }, CONTENT_KEY, options)
  }
