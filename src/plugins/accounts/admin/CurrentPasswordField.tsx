'use client'
/**
 * The admin's input for `currentPassword` (the proof a user's own e-mail or
 * password change needs): Payload's password input, so it is masked and a
 * password manager offers the current password, not a new one. Left empty
 * unless the e-mail or password changes, so it is never required here; the
 * rule itself is checked on the server (collections/Users/hooks/credentialChanges).
 */
import { PasswordField } from '@payloadcms/ui'
import type { TextFieldClientComponent } from 'payload'
import React from 'react'

const checkedOnTheServer = () => true as const

export const CurrentPasswordField: TextFieldClientComponent = (props) => (
  <PasswordField {...props} autoComplete="current-password" validate={checkedOnTheServer} />
)
