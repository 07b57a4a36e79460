/**
 * The moderation plugin holds a new account's first reply by default. Tests
 * written before it post replies as brand-new readers and expect them public,
 * so the test databases trust the reader role (a rule the owner can set:
 * site settings → Moderation → trusted roles) instead of weakening the
 * default. Moderation's own tests set the rules they test (`setRules`).
 */
import type { Payload } from 'payload'

export const TRUSTED_IN_TESTS = 'site-owner, administrator, author, reader'

export const TRUST_TEST_READERS_SQL = `
  insert into site_settings (created_at, updated_at) select now(), now() where not exists (select 1 from site_settings);
  update site_settings set moderation_trusted_roles = '${TRUSTED_IN_TESTS}';`

export type RuleSettings = Partial<{
  holdAll: boolean
  holdFirstReplies: number
  holdLinks: number
  holdWords: string
  blockWords: string
  trustedRoles: string
  spamThreshold: number
  holdThreshold: number
}>

/** The site's moderation rules: the defaults of a fresh site, changed by `rules`. */
export async function setRules(payload: Payload, rules: RuleSettings = {}): Promise<void> {
  const defaults = { holdAll: false, holdFirstReplies: 1, holdLinks: 3, holdWords: '', blockWords: '', trustedRoles: 'site-owner, administrator, author', spamThreshold: 0.95, holdThreshold: 0.7 }
  await payload.updateGlobal({ slug: 'site-settings', data: { moderation: { ...defaults, ...rules } } as never })
}
