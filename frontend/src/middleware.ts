/**
 * Once per request: a post that is not a readable form is refused (415/400,
 * lib/formPosts.ts); then who the visitor is. Pages and the layout read
 * `Astro.locals.me` (and `canWrite`) and pass it down; nothing else looks the
 * visitor up.
 */
import { defineMiddleware } from 'astro:middleware'

import { resolveVisitor } from './lib/api'
import { refuseUnreadableFormPost } from './lib/formPosts'

export const onRequest = defineMiddleware(async (context, next) => {
  // Pages read posts as forms: anything else is refused here, before a page's formData() would throw (500).
  const refused = await refuseUnreadableFormPost(context.request)
  if (refused) return refused
  const { me, canWrite } = await resolveVisitor(context.request)
  context.locals.me = me
  context.locals.canWrite = canWrite
  return next()
})
