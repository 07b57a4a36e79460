/**
 * How a switched request is authenticated, on every path at once (REST,
 * GraphQL, the admin, the Local API's `payload.auth`, the reader site): an
 * auth strategy on the users collection, which Payload consults before its own
 * JWT strategy. It answers only when all of these hold, and otherwise lets the
 * JWT strategy authenticate the owner as themselves:
 *
 *  - the switcher is active for this request (APP_DEBUG, a .dev/.local/.test host, not production);
 *  - the switch cookie carries this server's signature;
 *  - the session cookie is a valid, live session of the very owner and session the cookie names;
 *  - the owner still holds users.switch (a role edited meanwhile ends the switch).
 */
import { JWTAuthentication, type AuthStrategy, type AuthStrategyFunctionArgs, type Payload, type PayloadRequest, type TypedUser } from 'payload'

import { hasPermission } from '../../access'
import { SWITCH_COOKIE, cookieFrom, requestHost, switcherActive, verifySwitch, type SwitchClaim, type SwitcherSettings } from './switchCookie'

import { switchedFrom, type SwitchedFrom } from '../../lib/switchedSession'

/** On a switched user: who is really there (`switchedFrom`, src/lib/switchedSession.ts). Serialised with the user (the banner reads it). */
export { switchedFrom, type SwitchedFrom }

const OWNER_SESSION = Symbol.for('inkwell.switch.ownerSession')
type Switched = TypedUser & { _strategy?: string; switchedFrom?: SwitchedFrom; [OWNER_SESSION]?: string }

/** The owner's session id behind a switched user (never serialised: a symbol key). */
export function ownerSessionOf(user: unknown): string | undefined {
  return (user as Switched | null | undefined)?.[OWNER_SESSION]
}

export function isActiveFor(settings: SwitcherSettings, headers: Headers, url?: string): boolean {
  return switcherActive(settings, requestHost(headers, url))
}

/** Whether `user` holds a permission, read the way access rules read it (roles → permissions). */
export function userCan(payload: Payload, user: TypedUser, permission: string, req?: Partial<PayloadRequest>): Promise<boolean> {
  return hasPermission({ payload, user, context: {}, transactionID: req?.transactionID } as unknown as PayloadRequest, permission)
}

/** The owner behind a request's switch cookie: signed, and matching the live session it names. */
export async function verifiedClaim(args: AuthStrategyFunctionArgs): Promise<{ claim: SwitchClaim; owner: TypedUser } | undefined> {
  const claim = verifySwitch(args.payload.secret, cookieFrom(args.headers, SWITCH_COOKIE))
  if (!claim) return undefined
  const { user: owner } = await JWTAuthentication({ ...args, strategyName: 'local-jwt' })
  if (!owner || owner.collection !== 'users' || owner.id !== claim.ownerId || (owner as { _sid?: string })._sid !== claim.sid) return undefined
  return { claim, owner }
}

export function userSwitchStrategy(settings: SwitcherSettings): AuthStrategy {
  return {
    name: 'user-switch',
    authenticate: async (args) => {
      const { headers, payload, req, isGraphQL } = args
      // The common case costs one header read: no switch cookie, no work.
      if (!headers.get('cookie')?.includes(`${SWITCH_COOKIE}=`)) return { user: null }
      if (!isActiveFor(settings, headers, req?.url)) return { user: null }
      const verified = await verifiedClaim(args)
      if (!verified || verified.claim.targetId === verified.owner.id) return { user: null }
      if (!(await userCan(payload, verified.owner, 'users.switch', req))) return { user: null }
      const target = (await payload.findByID({
        collection: 'users',
        id: verified.claim.targetId,
        depth: isGraphQL ? 0 : payload.collections.users.config.auth.depth,
        overrideAccess: true,
        disableErrors: true,
        req,
      })) as Switched | null
      if (!target) return { user: null }
      target.collection = 'users'
      target._strategy = 'user-switch'
      target.switchedFrom = { id: verified.owner.id as number, name: String((verified.owner as { name?: string }).name ?? '') }
      target[OWNER_SESSION] = verified.claim.sid
      return { user: target }
    },
  }
}
