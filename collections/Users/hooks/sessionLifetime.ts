import { Forbidden, type CollectionBeforeOperationHook } from 'payload'

import { readHiddenAuthFields } from '../../../src/lib/pool'

type Session = { id: string; createdAt?: string | Date | null }

/**
 * An absolute session lifetime (SESSION_MAX_AGE): a refresh is refused when
 * the token it would issue outlives the session's sign-in time plus the
 * maximum age, so no token ever works past that point, however often the
 * session is refreshed. The browser then signs in again.
 */
export const capSessionLifetime =
  ({ maxAgeSeconds, tokenSeconds }: { maxAgeSeconds: number; tokenSeconds: number }): CollectionBeforeOperationHook =>
  async ({ args, operation, req }) => {
    if (operation !== 'refresh' || !req.user || req.user.collection !== 'users') return args
    const sid = (req.user as { _sid?: string })._sid
    const user = await readHiddenAuthFields(req.payload, req.user.id, req)
    const session = user?.sessions?.find((s) => s.id === sid)
    const signedInAt = session?.createdAt ? new Date(session.createdAt).getTime() : NaN
    if (!Number.isFinite(signedInAt) || Date.now() + tokenSeconds * 1000 > signedInAt + maxAgeSeconds * 1000) {
      throw new Forbidden(req.t)
    }
    return args
  }
