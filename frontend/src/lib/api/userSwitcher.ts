/**
 * The debug-only user switcher (src/plugins/userSwitch): its panel's data, as
 * the visitor, through the same REST route the admin uses. Null wherever the
 * switcher is not active or the visitor may not use it: nothing is rendered.
 */
import { getEnv } from '../../../../src/lib/env'
import type { User } from '../../../../src/payload-types'
import { switcherActive } from '../../../../src/plugins/userSwitch/switchCookie'
import { restAsVisitor } from './forms'

export type UserSwitcherState = {
  current: { id: number; name: string }
  switchedFrom: { id: number; name: string } | null
  users: { id: number; name: string; email?: string }[]
}

export async function getUserSwitcher(request: Request, me: User | null): Promise<UserSwitcherState | null> {
  const env = getEnv()
  if (!me || !switcherActive({ debug: env.debug, production: env.production }, request.headers.get('host') ?? new URL(request.url).host)) return null
  const reply = await restAsVisitor('GET', '/user-switch', request)
  return reply.ok ? (reply.data as unknown as UserSwitcherState) : null
}
