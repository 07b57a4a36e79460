/**
 * The debug-only user switcher (src/plugins/userSwitch): its panel's data, as
 * the visitor, through the same REST route the admin uses. Null wherever the
 * switcher is not active or the visitor may not use it: nothing is rendered.
 */
import type { User } from '../../../../src/payload-types'
import { switcherActive, switcherSettingsOf } from '../../../../src/plugins/userSwitch/switchCookie'
import { restAsVisitor } from './forms'
import { payload } from './payload'

export type UserSwitcherState = {
  current: { id: number; name: string }
  switchedFrom: { id: number; name: string } | null
  users: { id: number; name: string; email?: string }[]
}

export async function getUserSwitcher(request: Request, me: User | null): Promise<UserSwitcherState | null> {
  // The settings the composition gave the plugin; none when the userSwitch plugin is left out.
  const settings = switcherSettingsOf(payload())
  if (!me || !settings || !switcherActive(settings, request.headers.get('host') ?? new URL(request.url).host)) return null
  const reply = await restAsVisitor('GET', '/user-switch', request)
  return reply.ok ? (reply.data as unknown as UserSwitcherState) : null
}
