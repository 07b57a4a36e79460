'use client'
/** The admin's user switcher; its words are the catalogs' (src/lib/i18n), in the admin user's language. */
import React, { useState } from 'react'

import { useAdminT } from '../../languages/admin/useAdminT'
import { rich } from '../../languages/admin/rich'

type Person = { id: number; name: string; email?: string }

type Props = { current: Person; switchedFrom: { id: number; name: string } | null; users: Person[]; apiRoute: string }

const bar: React.CSSProperties = {
  display: 'flex',
  gap: '0.75rem',
  alignItems: 'center',
  flexWrap: 'wrap',
  padding: '0.5rem 1rem',
  fontSize: '0.875rem',
  borderBottom: '1px solid var(--theme-elevation-150)',
}

/** The admin's switcher: posts to /api/user-switch and reloads, so every part of the admin sees the new user. */
export function UserSwitchPanel({ current, switchedFrom, users, apiRoute }: Props) {
  const [choice, setChoice] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const { t } = useAdminT()

  async function post(path: string, body?: object) {
    setBusy(true)
    setError('')
    const res = await fetch(`${apiRoute}${path}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    })
    if (res.ok) return window.location.reload()
    const data = (await res.json().catch(() => ({}))) as { errors?: { message?: string }[] }
    setError(data.errors?.[0]?.message ?? t('userSwitch.failed', { status: String(res.status) }))
    setBusy(false)
  }

  if (switchedFrom) {
    return (
      <div role="status" style={{ ...bar, background: 'var(--theme-warning-100)' }} data-testid="user-switch-banner">
        <span>
          {rich(t('userSwitch.viewingAs'), {
            name: <strong>{current.name}</strong>,
            back: (
              <button type="button" className="btn btn--style-secondary btn--size-small" style={{ margin: 0 }} disabled={busy} onClick={() => post('/user-switch/back')} data-testid="user-switch-back">
                {t('userSwitch.back')}
              </button>
            ),
            from: switchedFrom.name,
          })}
        </span>
        {error && <span role="alert">{error}</span>}
      </div>
    )
  }
  return (
    <form
      style={bar}
      data-testid="user-switch-panel"
      onSubmit={(e) => {
        e.preventDefault()
        if (choice) void post('/user-switch', { user: choice })
      }}
    >
      <label htmlFor="user-switch-select">{t('userSwitch.label')}</label>
      <select id="user-switch-select" value={choice} onChange={(e) => setChoice(e.target.value)} data-testid="user-switch-select">
        <option value="">{t('userSwitch.choose')}</option>
        {users
          .filter((u) => u.id !== current.id)
          .map((u) => (
            <option key={u.id} value={u.id}>
              {u.name}
              {u.email ? ` (${u.email})` : ''}
            </option>
          ))}
      </select>
      <button type="submit" className="btn btn--style-secondary btn--size-small" style={{ margin: 0 }} disabled={busy || !choice}>
        {t('userSwitch.switch')}
      </button>
      {error && <span role="alert">{error}</span>}
    </form>
  )
}
