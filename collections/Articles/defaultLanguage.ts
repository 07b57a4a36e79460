import type { PayloadRequest } from 'payload'

/** A new article is in the site's language until its author says otherwise. */
export async function defaultLanguage({ req }: { req: PayloadRequest }): Promise<string> {
  const settings = await req.payload.findGlobal({ slug: 'site-settings', depth: 0, req })
  return settings.defaultLanguage || 'en'
}
