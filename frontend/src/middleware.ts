/**
 * Once per request: a post that is not a readable form is refused (415/400,
 * lib/formPosts.ts); then who the visitor is, and the interface language:
 * the signed-in user's choice, else the `lang` cookie or Accept-Language
 * (src/lib/i18n/negotiate.ts, the same reading the render cache keys on),
 * else the site's default. Pages and the layout read `Astro.locals.me`
 * (and `canWrite`, `lang`, `t`) and pass it down; nothing else looks the
 * visitor up.
 */
import { defineMiddleware } from 'astro:middleware'

import { requestedLanguage, supportedLanguage, translator } from '../../src/lib/i18n'
import { findRedirect, namesOldContent, resolveVisitor, siteLanguage } from './lib/api'
import { refuseUnreadableFormPost } from './lib/formPosts'

export const onRequest = defineMiddleware(async (context, next) => {
  // Pages read posts as forms: anything else is refused here, before a page's formData() would throw (500).
  const refused = await refuseUnreadableFormPost(context.request)
  if (refused) return refused
  const { me, canWrite } = await resolveVisitor(context.request)
  context.locals.me = me
  context.locals.canWrite = canWrite
  const headers = context.request.headers
  const lang =
    supportedLanguage(me?.language) ?? requestedLanguage(headers.get('cookie') ?? undefined, headers.get('accept-language') ?? undefined) ?? (await siteLanguage())
  context.locals.lang = lang
  context.locals.t = translator(lang)
  // An imported site's old addresses (src/plugins/import): `/?p=12` before the home page renders,
  // anything else only once no page answered, so pages that exist never pay for the lookup.
  const readable = context.request.method === 'GET' || context.request.method === 'HEAD'
  if (readable && namesOldContent(context.url)) {
    const to = await findRedirect(context.url.pathname + context.url.search)
    if (to) return context.redirect(to, 301)
  }
  const response = await next()
  if (readable && response.status === 404) {
    const to = await findRedirect(context.url.pathname + context.url.search)
    if (to) return context.redirect(to, 301)
  }
  try {
    response.headers.set('Content-Language', lang)
    response.headers.append('Vary', 'Accept-Language, Cookie')
  } catch {
    // A redirect's headers are immutable: it has no words to translate.
  }
  return response
})
