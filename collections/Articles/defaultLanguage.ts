import type { FieldHook, PayloadRequest } from 'payload'

/** A new article is in the site's language until its author says otherwise. */
export async function defaultLanguage({ req }: { req: PayloadRequest }): Promise<string> {
  // Read once per request: an import creates a batch of articles in one request (and transaction).
  const cached = req.context.siteDefaultLanguage
  if (typeof cached === 'string') return cached
  const settings = await req.payload.findGlobal({ slug: 'site-settings', depth: 0, req })
  const language = settings.defaultLanguage || 'en'
  req.context.siteDefaultLanguage = language
  return language
}

const HAN = /\p{Script=Han}/u
/** The words of a new article's body, whichever format it is written in (the rich-text JSON holds its text as strings). */
function bodyText(data: Record<string, unknown> | undefined): string {
  const body = data?.markdown ?? data?.body
  return (typeof body === 'string' ? body : body ? JSON.stringify(body) : '').slice(0, 20_000)
}

/** A Chinese title, and a body that is Chinese too or empty (the rule of chineseByContent; the importer's bulk path reads it too). */
export function isChineseArticle(data: Record<string, unknown> | undefined): boolean {
  const title = typeof data?.title === 'string' ? data.title : ''
  if (!HAN.test(title)) return false
  const body = bodyText(data)
  return body.trim() === '' || HAN.test(body)
}

/**
 * A new article whose title (and body, when it has one) is Chinese is `zh-CN`,
 * unless its author chose a language other than the site's default: the admin's
 * form sends that default as if chosen, so it counts as not chosen.
 */
export const chineseByContent: FieldHook = async ({ value, operation, data, req }) => {
  if (operation !== 'create') return value
  if (!isChineseArticle(data)) return value
  if (value === undefined || value === null || value === '' || value === (await defaultLanguage({ req }))) return 'zh-CN'
  return value
}
