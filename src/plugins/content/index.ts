import type { Config, Plugin } from 'payload'

import { Articles } from '../../../collections/Articles'
import { Categories } from '../../../collections/Categories'
import { createMedia } from '../../../collections/Media'
import { Replies } from '../../../collections/Replies'
import { Tags } from '../../../collections/Tags'
import { addToConfig } from '../addToConfig'
import { withPluginOptions } from '../pluginOptions'
import { CONTENT_KEY, type ContentOptions } from './options'

/** Articles with their taxonomy, replies and uploads. */
export const contentPlugin =
  (options: ContentOptions): Plugin =>
  (config) =>
    withPluginOptions(
      addToConfig({ collections: [Articles, Categories, Tags, Replies, createMedia({ staticDir: options.mediaDir })] })(config) as Config,
      CONTENT_KEY,
      options,
    )
