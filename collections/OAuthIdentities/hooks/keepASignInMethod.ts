import { ValidationError, type CollectionBeforeDeleteHook } from 'payload'

import { readHiddenAuthFields } from '../../../src/lib/pool'
import { relationId } from '../../../src/lib/relationId'
import { validationTranslator } from '../../../src/lib/i18n/request'
import { providerLabel as providerName } from '../../../src/plugins/oauth/messages'

/** Whether the user can sign in with a password: a provider-created user has none until a reset sets one. */
export async function hasPassword(req: Parameters<CollectionBeforeDeleteHook>[0]['req'], userId: number): Promise<boolean> {
  const user = await readHiddenAuthFields(req.payload, userId, req)
  return Boolean(user?.hash)
}

/**
 * The last way to sign in cannot be removed: an identity is deleted only if
 * its user has a password or another linked provider. A user deleted as a
 * whole takes its identities along in the database (ON DELETE CASCADE), which
 * does not pass through here.
 */
export const keepASignInMethod: CollectionBeforeDeleteHook = async ({ id, req }) => {
  const identity = await req.payload.findByID({ collection: 'oauth-identities', id, depth: 0, overrideAccess: true, req, disableErrors: true })
  const userId = relationId(identity?.user)
  if (!identity || !userId) return
  const { totalDocs: others } = await req.payload.count({
    collection: 'oauth-identities',
    where: { and: [{ user: { equals: userId } }, { id: { not_equals: id } }] },
    overrideAccess: true,
    req,
  })
  if (others > 0 || (await hasPassword(req, userId))) return
  throw new ValidationError({
    collection: 'oauth-identities',
    errors: [
      {
        path: 'provider',
        message: validationTranslator(req)('error.oauth.onlyWay', { provider: providerName(identity.provider) }),
      },
    ],
  })
}
