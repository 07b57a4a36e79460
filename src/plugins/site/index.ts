import type { Config, Plugin } from 'payload'

import { Links } from '../../../collections/Links'
import { SiteSettings } from '../../globals/SiteSettings'
import { addToConfig } from '../addToConfig'

/** Site-wide pieces: settings and friendly links. */
export const sitePlugin = (): Plugin => (config: Config): Config => addToConfig({ collections: [Links], globals: [SiteSettings] })(config) as Config
