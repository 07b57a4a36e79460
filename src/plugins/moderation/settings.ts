/**
 * The owner's rules as a group on the site-settings global (admin → Site
 * settings → Moderation), and how the hooks read them: missing values (a
 * site whose settings were saved before this plugin) take the defaults.
 */
import type { Field, PayloadRequest } from 'payload'

import { sql } from '@payloadcms/db-postgres'

import { fieldCan } from '../../access'
import { transactionDb } from '../../lib/pool'
import { DEFAULT_RULES, wordList, type Rules } from './rules'
import { bothLanguages } from '../../lib/i18n/labels'

export const moderationSettingsField: Field = {
  name: 'moderation',
  type: 'group',
  label: bothLanguages('admin.field.moderation.label'),
  // Moderators set the rules they apply (settings.manage alone does not reach them).
  access: { update: fieldCan('replies.moderate') },
  admin: { description: bothLanguages('admin.field.moderation') },
  fields: [
    { name: 'holdAll', type: 'checkbox', defaultValue: DEFAULT_RULES.holdAll, label: bothLanguages('admin.field.moderation.holdAll.label') },
    {
      name: 'holdFirstReplies',
      type: 'number',
      min: 0,
      max: 100,
      defaultValue: DEFAULT_RULES.holdFirstReplies,
      admin: { description: bothLanguages('admin.field.moderation.holdFirstReplies') },
    },
    { name: 'holdLinks', type: 'number', min: 0, max: 100, defaultValue: DEFAULT_RULES.holdLinks, admin: { description: bothLanguages('admin.field.moderation.holdLinks') } },
    { name: 'holdWords', type: 'textarea', maxLength: 10_000, admin: { description: bothLanguages('admin.field.moderation.holdWords') } },
    { name: 'blockWords', type: 'textarea', maxLength: 10_000, admin: { description: bothLanguages('admin.field.moderation.blockWords') } },
    {
      name: 'trustedRoles',
      type: 'text',
      maxLength: 1000,
      defaultValue: DEFAULT_RULES.trustedRoles.join(', '),
      admin: { description: bothLanguages('admin.field.moderation.trustedRoles') },
    },
    { name: 'spamThreshold', type: 'number', min: 0, max: 1, defaultValue: DEFAULT_RULES.spamThreshold, admin: { description: bothLanguages('admin.field.moderation.spamThreshold') } },
    { name: 'holdThreshold', type: 'number', min: 0, max: 1, defaultValue: DEFAULT_RULES.holdThreshold, admin: { description: bothLanguages('admin.field.moderation.holdThreshold') } },
  ],
}

type Stored = Partial<{ holdAll: boolean | null; holdFirstReplies: number | null; holdLinks: number | null; holdWords: string | null; blockWords: string | null; trustedRoles: string | null; spamThreshold: number | null; holdThreshold: number | null }>

export function rulesFrom(stored: Stored | null | undefined): Rules {
  const s = stored ?? {}
  const num = (v: number | null | undefined, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d)
  return {
    holdAll: typeof s.holdAll === 'boolean' ? s.holdAll : DEFAULT_RULES.holdAll,
    holdFirstReplies: num(s.holdFirstReplies, DEFAULT_RULES.holdFirstReplies),
    holdLinks: num(s.holdLinks, DEFAULT_RULES.holdLinks),
    holdWords: wordList(s.holdWords),
    blockWords: wordList(s.blockWords),
    trustedRoles: typeof s.trustedRoles === 'string' ? wordList(s.trustedRoles) : DEFAULT_RULES.trustedRoles,
    spamThreshold: num(s.spamThreshold, DEFAULT_RULES.spamThreshold),
    holdThreshold: num(s.holdThreshold, DEFAULT_RULES.holdThreshold),
  }
}

/**
 * The rules for one reply: the eight columns of the group, read in the request's transaction
 * (not the whole site-settings global, whose other fields and arrays every reply would pay for;
 * read every time, so a change in the admin applies at once in every process).
 */
export async function rulesOf(req: PayloadRequest): Promise<Rules> {
  const db = await transactionDb(req)
  const result = (await db.execute(sql`
    select moderation_hold_all as "holdAll", moderation_hold_first_replies::float8 as "holdFirstReplies", moderation_hold_links::float8 as "holdLinks",
           moderation_hold_words as "holdWords", moderation_block_words as "blockWords", moderation_trusted_roles as "trustedRoles",
           moderation_spam_threshold::float8 as "spamThreshold", moderation_hold_threshold::float8 as "holdThreshold"
      from site_settings limit 1`)) as { rows: Stored[] }
  return rulesFrom(result.rows[0])
}
