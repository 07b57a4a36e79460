import type { Plugin } from 'payload'

import { Links } from '../../collections/Links'
import { Notifications } from '../../collections/Notifications'
import { SiteSettings } from '../globals/SiteSettings'
import { addToConfig } from './addToConfig'

/** Site-wide pieces: settings, friendly links and in-site notifications. */
export const sitePlugin = (): Plugin => addToConfig({ collections: [Links, Notifications], globals: [SiteSettings] })
