/**
 * Once per request: who the visitor is. Pages and the layout read
 * `Astro.locals.me` and pass it down; nothing else looks the visitor up.
 */
import { defineMiddleware } from 'astro:middleware'

import { resolveVisitor } from './lib/api'

export const onRequest = defineMiddleware(async (context, next) => {
  context.locals.me = await resolveVisitor(context.request)
  return next()
})
