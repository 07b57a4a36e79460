'use client'
/**
 * Above the admin's list of webhooks: a form that creates a hook and shows its
 * signing secret once (it is only in the create answer; the admin's own create
 * view would save a hook whose secret nobody saw — rotate it there to get one).
 * Words from the catalogs (src/lib/i18n), in the admin user's language.
 */
import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'

import { useAdminT } from '../../languages/admin/useAdminT'
import { WEBHOOK_EVENTS } from '../events'

type Created = { url: string; secret: string }

export function WebhookCreator() {
  const router = useRouter()
  const [created, setCreated] = useState<Created | null>(null)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const { t } = useAdminT()

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const body = { url: String(form.get('url') ?? '').trim(), description: String(form.get('description') ?? ''), events: form.getAll('events').map(String) }
    setBusy(true)
    setError('')
    try {
      const response = await fetch('/api/webhooks', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      const answer = (await response.json()) as { doc?: Created; errors?: { message: string; data?: { errors?: { message: string }[] } }[] }
      if (!response.ok || !answer.doc) {
        const first = answer.errors?.[0]
        throw new Error(first?.data?.errors?.[0]?.message ?? first?.message ?? t('webhooks.serverAnswered', { status: String(response.status) }))
      }
      setCreated({ url: answer.doc.url, secret: answer.doc.secret })
      ;(event.target as HTMLFormElement).reset()
      router.refresh()
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section style={{ marginBottom: 'calc(var(--base) * 2)' }} aria-labelledby="new-webhook">
      <h3 id="new-webhook">{t('webhooks.new')}</h3>
      {created && (
        <div role="status" style={{ margin: 'var(--base) 0' }}>
          <p>{t('webhooks.created', { url: created.url })}</p>
          <label htmlFor="issued-webhook-secret">{t('webhooks.secret')}</label>
          <input id="issued-webhook-secret" readOnly value={created.secret} style={{ width: '100%', fontFamily: 'monospace' }} onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
      {error && (
        <p role="alert" style={{ color: 'var(--theme-error-500)' }}>
          {error}
        </p>
      )}
      <form onSubmit={create} style={{ display: 'grid', gap: 'var(--base)' }}>
        <label>
          {t('webhooks.address')}
          <br />
          <input name="url" type="url" required maxLength={2000} placeholder="https://example.com/hooks/inkwell" style={{ width: '100%' }} />
        </label>
        <label>
          {t('webhooks.description')}
          <br />
          <input name="description" maxLength={500} style={{ width: '100%' }} />
        </label>
        <fieldset style={{ display: 'flex', flexWrap: 'wrap', gap: 'calc(var(--base) / 2) var(--base)' }}>
          <legend>{t('webhooks.events')}</legend>
          {WEBHOOK_EVENTS.filter((e) => e !== 'ping').map((name) => (
            <label key={name}>
              <input type="checkbox" name="events" value={name} /> {name}
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" className="btn btn--style-primary btn--size-small" disabled={busy}>
            {t('webhooks.create')}
          </button>
        </div>
      </form>
    </section>
  )
}
