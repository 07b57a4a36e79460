import { ValidationError, type CollectionBeforeChangeHook } from 'payload'

import { relationId } from '../../../src/lib/relationId'
import { validationTranslator } from '../../../src/lib/i18n/request'
import { providerLabel as providerName } from '../../../src/plugins/oauth/messages'

/** A user links at most one account per provider, so "unlink GitHub" always means one thing. */
export const oneIdentityPerProvider: CollectionBeforeChangeHook = async ({ data, operation, req }) => {
  if (operation !== 'create') return data
  const userId = relationId(data.user)
  if (!userId || !data.provider) return data
  const { totalDocs } = await req.payload.count({
    collection: 'oauth-identities',
    where: { and: [{ user: { equals: userId } }, { provider: { equals: data.provider } }] },
    overrideAccess: true,
    req,
  })
  if (totalDocs > 0) {
    throw new ValidationError({ collection: 'oauth-identities', errors: [{ path: 'provider', message: validationTranslator(req)('error.oauth.linkedAlready', { provider: providerName(data.provider) }) }] })
  }
  return data
}
