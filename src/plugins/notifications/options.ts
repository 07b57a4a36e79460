/** What the notifications plugin needs from the typed configuration, kept for its jobs (see ../pluginOptions.ts). */
import type { Payload } from 'payload'

import { pluginOptionsOf } from '../pluginOptions'

export type NotificationsOptions = {
  /** BASE_URL: the links in a mail point at the reader site. */
  baseUrl: string
  /** MAIL_FROM_NAME: the site's name in a mail when the settings give none. */
  mailFromName: string
  /** Mail jobs run at once per working process (default 10): they mostly wait on the database and the SMTP server. */
  mailConcurrency?: number
}

export const NOTIFICATIONS_KEY = 'notifications'

export function notificationsOptionsOf(payload: Payload): NotificationsOptions {
  const options = pluginOptionsOf<NotificationsOptions>(payload, NOTIFICATIONS_KEY)
  if (!options) throw new Error('notifications: the plugin is not in this config (src/plugins/index.ts)')
  return options
}
