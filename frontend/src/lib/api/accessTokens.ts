/**
 * The profile's access-token section: listing the visitor's tokens, and
 * creating or revoking one through Payload's REST handling as the visitor
 * (so the collection's rules apply: owner stamped, secret hashed, shown once).
 */
import type { User } from '../../../../src/payload-types'
import { fieldErrorsOf } from './errors'
import { accountDelete, accountPost } from './forms'
import { asVisitor, composed, payload } from './payload'

export type TokenRow = { id: number; name: string; scope: 'read' | 'write'; publicId?: string | null; expiresAt?: string | null; lastUsedAt?: string | null; createdAt: string }

/** The visitor's tokens; none without the accessTokens plugin. */
export async function listMyAccessTokens(me: User): Promise<TokenRow[]> {
  if (!composed('accessTokens')) return []
  const { docs } = await payload().find({
    collection: 'access-tokens',
    where: { user: { equals: me.id } },
    sort: '-createdAt',
    limit: 100,
    depth: 0,
    select: { name: true, scope: true, publicId: true, expiresAt: true, lastUsedAt: true, createdAt: true },
    ...asVisitor(me),
  })
  return docs as TokenRow[]
}

export type TokenFormResult = {
  status: number
  /** The whole token, in the answer that created it, once. */
  issued?: { name: string; token: string }
  errors: Record<string, string>
  values: { name: string; scope: string; expiresAt: string }
  revoked?: boolean
}

export async function handleTokenForm(form: FormData, request: Request, clientAddress?: string): Promise<TokenFormResult> {
  const values = { name: String(form.get('name') ?? '').trim(), scope: String(form.get('scope') ?? 'read'), expiresAt: String(form.get('expiresAt') ?? '') }
  if (form.get('form') === 'token-revoke') {
    const id = String(form.get('id') ?? '')
    if (!/^\d{1,15}$/.test(id)) return { status: 400, errors: { form: 'Choose a token to revoke.' }, values }
    const reply = await accountDelete(`/access-tokens/${id}`, request, clientAddress)
    return reply.ok ? { status: 200, errors: {}, values, revoked: true } : { status: reply.status, errors: fieldErrorsOf(reply), values }
  }
  const body: Record<string, string> = { name: values.name, scope: values.scope }
  // A date input gives a day; the token works to the end of it.
  if (values.expiresAt) body.expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(values.expiresAt) ? `${values.expiresAt}T23:59:59.999Z` : values.expiresAt
  const reply = await accountPost('/access-tokens', request, body, clientAddress)
  if (!reply.ok) return { status: reply.status, errors: fieldErrorsOf(reply), values }
  const doc = (reply.data as { doc?: { name: string; token: string } }).doc
  return { status: 201, issued: doc && { name: doc.name, token: doc.token }, errors: {}, values: { name: '', scope: 'read', expiresAt: '' } }
}
