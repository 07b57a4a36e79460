import type { Plugin } from 'payload'

import { Articles } from '../../../collections/Articles'
import { Categories } from '../../../collections/Categories'
import { createMedia } from '../../../collections/Media'
import { Replies } from '../../../collections/Replies'
import { Tags } from '../../../collections/Tags'
import { addToConfig } from '../addToConfig'

/** Articles with their taxonomy, replies and uploads. */
export const contentPlugin = (options: { mediaDir: string }): Plugin =>
  addToConfig({ collections: [Articles, Categories, Tags, Replies, createMedia({ staticDir: options.mediaDir })] })
