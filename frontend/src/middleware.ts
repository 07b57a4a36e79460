/**
 * Once per request: who the visitor is. Pages and the layout read
 * `Astro.locals.me` (and `canWrite`) and pass it down; nothing else looks the
 * visitor up.
 */
import { defineMiddleware } from 'astro:middleware'

import { resolveVisitor } from './lib/api'

export const onRequest = defineMiddleware(async (context, next) => {
  const { me, canWrite } = await resolveVisitor(context.request)
  context.locals.me = me
  context.locals.canWrite = canWrite
  return next()
})
