/**
 * The user switcher in the admin header: the "Viewing as … — switch back"
 * banner while switched, else a small picker for holders of users.switch.
 * Rendered only where the switcher is active (see ../switchCookie.ts);
 * everywhere else this renders nothing at all.
 */
import { headers } from 'next/headers'
import type { ServerProps, TypedUser } from 'payload'
import React from 'react'

import { switcherActive, switcherSettingsOf } from '../switchCookie'
import { switchedFrom, userCan } from '../strategy'
import { UserSwitchPanel } from './UserSwitchPanel'

export async function UserSwitchHeader({ payload, user }: ServerProps) {
  const settings = switcherSettingsOf(payload)
  if (!user || !settings || !switcherActive(settings, (await headers()).get('host'))) return null
  const from = switchedFrom(user) ?? null
  if (!from && !(await userCan(payload, user as TypedUser, 'users.switch'))) return null
  const { docs } = await payload.find({ collection: 'users', select: { name: true, email: true }, sort: 'name', limit: 50, depth: 0, overrideAccess: true })
  return (
    <UserSwitchPanel
      current={{ id: user.id as number, name: String((user as { name?: string }).name ?? '') }}
      switchedFrom={from}
      users={docs.map((u) => ({ id: u.id, name: u.name, email: u.email ?? '' }))}
      apiRoute={payload.config.routes.api}
    />
  )
}
