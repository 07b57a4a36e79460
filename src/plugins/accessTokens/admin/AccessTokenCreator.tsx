'use client'
/**
 * Above the admin's list of access tokens: a form that creates one for the
 * signed-in user and shows it once. The admin's own create view would save a
 * token nobody ever sees (the secret is only in the create answer), so tokens
 * are made here, through the same REST endpoint as the site's profile page.
 * Words from the catalogs (src/lib/i18n), in the admin user's language.
 */
import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'

import { useAdminT } from '../../languages/admin/useAdminT'

type Issued = { name: string; token: string }

export function AccessTokenCreator() {
  const router = useRouter()
  const [issued, setIssued] = useState<Issued | null>(null)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const { t } = useAdminT()

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const expiresOn = String(form.get('expiresAt') ?? '')
    const body = {
      name: String(form.get('name') ?? '').trim(),
      scope: String(form.get('scope') ?? 'read'),
      ...(expiresOn ? { expiresAt: `${expiresOn}T23:59:59.999Z` } : {}),
    }
    setBusy(true)
    setError('')
    try {
      const response = await fetch('/api/access-tokens', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
      const answer = (await response.json()) as { doc?: Issued; errors?: { message: string }[] }
      if (!response.ok || !answer.doc) throw new Error(answer.errors?.[0]?.message ?? t('tokens.admin.serverAnswered', { status: String(response.status) }))
      setIssued({ name: answer.doc.name, token: answer.doc.token })
      ;(event.target as HTMLFormElement).reset()
      router.refresh()
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section style={{ marginBottom: 'calc(var(--base) * 2)' }} aria-labelledby="new-access-token">
      <h3 id="new-access-token">{t('tokens.admin.new')}</h3>
      {issued && (
        <div role="status" style={{ margin: 'var(--base) 0' }}>
          <p>{t('tokens.admin.issued', { name: issued.name })}</p>
          <label htmlFor="issued-access-token">{t('tokens.admin.token')}</label>
          <input id="issued-access-token" readOnly value={issued.token} style={{ width: '100%', fontFamily: 'monospace' }} onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
      {error && (
        <p role="alert" style={{ color: 'var(--theme-error-500)' }}>
          {error}
        </p>
      )}
      <form onSubmit={create} style={{ display: 'flex', gap: 'var(--base)', flexWrap: 'wrap', alignItems: 'end' }}>
        <label>
          {t('tokens.admin.name')}
          <br />
          <input name="name" required maxLength={80} placeholder={t('tokens.admin.namePlaceholder')} />
        </label>
        <label>
          {t('tokens.admin.scope')}
          <br />
          <select name="scope" defaultValue="read">
            <option value="read">{t('tokens.admin.read')}</option>
            <option value="write">{t('tokens.admin.write')}</option>
          </select>
        </label>
        <label>
          {t('tokens.admin.expires')}
          <br />
          <input name="expiresAt" type="date" />
        </label>
        <button type="submit" className="btn btn--style-primary btn--size-small" disabled={busy}>
          {t('tokens.admin.create')}
        </button>
      </form>
    </section>
  )
}
