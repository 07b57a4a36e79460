/**
 * The daily digest (schedule `moderation-digest`, 08:00 in APP_TIMEZONE):
 * one mail to each moderator (site owners and holders of `replies.moderate`)
 * listing what waits — never one mail per held reply. Nothing waiting, no mail.
 * Each moderator reads it in their language (their profile's, else the site's default).
 */
import type { Payload } from 'payload'

import type { BlogSchedule } from '../../../jobs/commands'
import { escapeHtml } from '../../lib/escapeHtml'
import { query } from '../../lib/pool'
import { supportedLanguage, translator, type Language } from '../../lib/i18n'
import { MODERATION_QUEUE_PATH, waitingCount } from './queue'

const LISTED = 20

type Moderator = { email: string; language: string | null }

export async function moderators(payload: Payload): Promise<Moderator[]> {
  return query<Moderator>(
    payload,
    `select distinct u.email, u.language::text as language from users u
       join users_rels ur on ur.parent_id = u.id and ur.path = 'roles'
       join roles r on r.id = ur.roles_id
      where u.email is not null and (r.slug = 'site-owner' or exists (
        select 1 from roles_rels rr join permissions p on p.id = rr.permissions_id
         where rr.parent_id = r.id and rr.path = 'permissions' and p.slug = 'replies.moderate'))
      order by u.email`,
  )
}

type Held = { id: number; body: string; title: string | null; name: string | null }

/** The digest's subject, text and HTML in one language. */
function digestMail(lang: Language, site: string, link: string, waiting: number, held: Held[]) {
  const t = translator(lang)
  const line = (h: Held) => t('mail.digest.line', { name: h.name ?? t('mail.digest.someone'), title: h.title ?? '?', body: h.body.replace(/\s+/g, ' ') })
  const lead = t('mail.digest.lead', { site })
  const open = t('mail.digest.link')
  return {
    subject: t('mail.digest.subject', { count: waiting }),
    text: `${lead}\n\n${held.map((h) => `- ${line(h)}`).join('\n')}\n\n${open}: ${link}\n`,
    html: `<p>${escapeHtml(lead)}</p><ul>${held.map((h) => `<li>${escapeHtml(line(h))}</li>`).join('')}</ul><p><a href="${escapeHtml(link)}">${escapeHtml(open)}</a></p>`,
  }
}

export async function sendModerationDigest(payload: Payload, baseUrl: string): Promise<string> {
  const waiting = await waitingCount(payload)
  if (waiting === 0) return 'nothing waits for moderation'
  const recipients = await moderators(payload)
  if (recipients.length === 0) return `${waiting} waiting, but no moderator to tell`
  const held = await query<Held>(
    payload,
    `select r.id, left(r.body, 200) as body, a.title, u.name from replies r
       left join articles a on a.id = r.article_id left join users u on u.id = r.author_id
      where r.status = 'held' order by r.created_at desc limit ${LISTED}`,
  )
  const settings = (await payload.findGlobal({ slug: 'site-settings', depth: 0, overrideAccess: true })) as { siteName?: string; defaultLanguage?: string }
  const site = settings?.siteName || 'Inkwell'
  const link = `${baseUrl}${payload.config.routes.admin}${MODERATION_QUEUE_PATH}`
  const siteLanguage = supportedLanguage(settings?.defaultLanguage) ?? 'en'
  for (const { email, language } of recipients) {
    const mail = digestMail(supportedLanguage(language) ?? siteLanguage, site, link, waiting, held)
    await payload.sendEmail({ to: email, ...mail })
  }
  return `digest of ${waiting} waiting repl${waiting === 1 ? 'y' : 'ies'} sent to ${recipients.length} moderator(s)`
}

export const digestSchedule = (baseUrl: string): BlogSchedule => ({
  name: 'moderation-digest',
  cron: '0 8 * * *',
  description: 'Mail moderators a digest of the replies waiting for moderation',
  run: (payload) => sendModerationDigest(payload, baseUrl),
})
