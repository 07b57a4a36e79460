/**
 * Moderation and spam (issue 29): replies get a state — published, held,
 * spam, trash — decided when they are posted by the owner's rules (site
 * settings → Moderation) and a spam score (a naive-Bayes classifier learnt
 * from the moderators' decisions, plus signals it misses); moderators
 * (`replies.moderate`) change it, every change is logged (moderation-events).
 * Readers see published replies and their own held ones. Notifications and
 * webhooks announce a reply when it is first published (src/lib/replyVisibility.ts).
 * Moderators work in the admin's moderation queue (/admin/moderation, a
 * nav badge counts what waits), readers report replies (reply-reports), and
 * a daily digest mails moderators. With an Akismet key (AKISMET_KEY), Akismet
 * gives a second opinion on new replies and registrations and hears the
 * moderators' decisions (akismet.ts). Remove this plugin and every reply is
 * published at once, as before.
 */
import type { CollectionConfig, Config, Field, GlobalConfig, Plugin } from 'payload'

import { ModerationEvents } from '../../../collections/ModerationEvents'
import { ReplyReports } from '../../../collections/ReplyReports'
import { addJobs, addSchedules } from '../../../jobs/commands'
import { fieldCan } from '../../access'
import { serverSecret, serverWritten } from '../../fields/serverOwned'
import { addToConfig } from '../addToConfig'
import { decorateCollection } from '../decorateCollection'
import { decideOnCreate, MODERATE, onUpdate, recordStateChange, visibleReplies } from './hooks'
import { REPLY_STATES } from './rules'
import { akismetFrom, AKISMET_REPORT_JOB, reportDecision, type Akismet, type AkismetOptions, type AkismetReportData } from './akismet'
import { digestSchedule } from './digest'
import { scoreRegistration } from './registration'
import { handleModerationAction, MODERATION_ACTION_PATH, MODERATION_QUEUE_PATH } from './queue'
import { moderationSettingsField } from './settings'
import { bothLanguages, optionLabels } from '../../lib/i18n/labels'

declare module '../../../jobs/definitions' {
  interface JobData {
    'akismet-report': AkismetReportData
  }
}

export type ModerationOptions = {
  baseUrl: string
  /** Akismet's key, address and time limit (AKISMET_*); without a key, moderation asks no one. */
  akismet?: Omit<AkismetOptions, 'blog'>
}

const moderatorsOnly = { read: fieldCan(MODERATE), create: () => false, update: () => false }

const replyFields: Field[] = [
  {
    name: 'status',
    type: 'select',
    defaultValue: 'published',
    index: true,
    options: optionLabels('admin.option.replyStatus', REPLY_STATES),
    // Set by the rules on posting; changed by moderators only (anyone else's value is dropped, on every path).
    access: { create: () => false, update: fieldCan(MODERATE) },
    admin: { position: 'sidebar', description: bothLanguages('admin.field.replies.status') },
  },
  { name: 'spamScore', type: 'number', access: moderatorsOnly, admin: { position: 'sidebar', readOnly: true } },
  { name: 'moderationReasons', type: 'json', access: moderatorsOnly, admin: { position: 'sidebar', readOnly: true } },
  // When it was first published: notifications and webhooks announce a reply once, then (src/lib/replyVisibility.ts).
  { name: 'firstPublishedAt', type: 'date', access: serverWritten, admin: { hidden: true } },
  // The reply it answered, for the notification an approval sends later.
  { name: 'answeredReply', type: 'number', access: serverWritten, admin: { hidden: true } },
  // Same text from several accounts: a hash of the normalised body, compared in SQL.
  { name: 'moderationFingerprint', type: 'text', index: true, access: serverSecret, admin: { hidden: true } },
  // What the classifier learnt from this reply, so a changed decision can take it back.
  { name: 'trainedAs', type: 'select', options: ['spam', 'ham'], access: serverSecret, admin: { hidden: true } },
  // The visitor's address and browser when Akismet was asked: a moderator's decision is reported with the same facts.
  { name: 'akismetContext', type: 'json', access: serverSecret, admin: { hidden: true } },
]

const moderateReplies = (akismet: Akismet | undefined) => (replies: CollectionConfig): CollectionConfig => {
  const hooks = replies.hooks ?? {}
  return {
    ...replies,
    admin: { ...replies.admin, defaultColumns: ['body', 'status', 'article', 'author', 'createdAt'] },
    access: { ...replies.access, read: visibleReplies(replies.access!.read!) },
    hooks: {
      ...hooks,
      beforeChange: [...(hooks.beforeChange ?? []), decideOnCreate(akismet), onUpdate(akismet)],
      afterChange: [...(hooks.afterChange ?? []), recordStateChange],
    },
    fields: [...replies.fields, ...replyFields],
  }
}

const registrationScoreField: Field = {
  name: 'registrationScore',
  type: 'number',
  access: { read: fieldCan(MODERATE), create: () => false, update: () => false },
  admin: { position: 'sidebar', readOnly: true, description: bothLanguages('admin.field.users.registrationScore') },
}

const blockedField: Field = {
  name: 'moderationBlocked',
  type: 'checkbox',
  label: bothLanguages('admin.field.users.moderationBlocked.label'),
  defaultValue: false,
  access: { read: fieldCan(MODERATE), create: () => false, update: fieldCan(MODERATE) },
  admin: { position: 'sidebar', description: bothLanguages('admin.field.users.moderationBlocked') },
}

const withSettings = (global: GlobalConfig): GlobalConfig =>
  global.slug === 'site-settings' ? { ...global, fields: [...global.fields, moderationSettingsField] } : global

export const moderationPlugin = (options: ModerationOptions): Plugin => (config: Config): Config => {
  const akismet = akismetFrom(options.akismet && { ...options.akismet, blog: options.baseUrl })
  const replies = decorateCollection(config, 'replies', 'moderationPlugin', moderateReplies(akismet))
  const users = decorateCollection(replies, 'users', 'moderationPlugin', (c) => ({
    ...c,
    fields: [...c.fields, blockedField, registrationScoreField],
    hooks: { ...c.hooks, beforeChange: [...(c.hooks?.beforeChange ?? []), scoreRegistration(akismet)] },
  }))
  const withGlobal = { ...users, globals: (users.globals ?? []).map(withSettings) }
  const added = addToConfig({
    collections: [ModerationEvents, ReplyReports],
    endpoints: [{ path: MODERATION_ACTION_PATH, method: 'post', handler: handleModerationAction }],
    admin: {
      views: { moderation: { Component: '/src/plugins/moderation/admin/ModerationQueueView#ModerationQueueView', path: MODERATION_QUEUE_PATH, exact: true } },
      afterNavLinks: ['/src/plugins/moderation/admin/ModerationNavLink#ModerationNavLink'],
    },
  })(withGlobal) as Config
  const scheduled = addSchedules(added, [digestSchedule(options.baseUrl)])
  // Akismet is another system: its reports are retried with backoff for the retry window (JOB_RETRY_WINDOW_SECONDS).
  return akismet ? addJobs(scheduled, { [AKISMET_REPORT_JOB]: { handler: reportDecision(akismet) as never, external: true } }) : scheduled
}
