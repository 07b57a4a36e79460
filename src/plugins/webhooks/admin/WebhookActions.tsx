'use client'
/**
 * In a webhook's edit view (or a delivery's): send a ping, rotate the signing
 * secret (the new one shown once), redeliver every failed delivery (or this
 * delivery), and open the hook's delivery log. Each calls the plugin's endpoints.
 * Words from the catalogs (src/lib/i18n), in the admin user's language.
 */
import { useDocumentInfo, useFormFields } from '@payloadcms/ui'
import { useState } from 'react'

import type { Translate } from '../../../lib/i18n'
import { useAdminT } from '../../languages/admin/useAdminT'

async function post(t: Translate, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(path, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) })
  const answer = (await response.json()) as Record<string, unknown> & { errors?: { message: string }[] }
  if (!response.ok) throw new Error(answer.errors?.[0]?.message ?? t('webhooks.serverAnswered', { status: String(response.status) }))
  return answer
}

function useAction() {
  const [message, setMessage] = useState('')
  const [secret, setSecret] = useState('')
  const run = (work: () => Promise<string>) => () => void work().then(setMessage, (e: Error) => setMessage(e.message))
  return { message, secret, setSecret, run }
}

export function WebhookActions() {
  const { id } = useDocumentInfo()
  const { message, secret, setSecret, run } = useAction()
  const { t, lang } = useAdminT()
  if (!id) return null
  const base = `/api/webhooks/${id}`
  return (
    <div style={{ display: 'grid', gap: 'calc(var(--base) / 2)', marginBottom: 'var(--base)' }}>
      <button type="button" className="btn btn--style-secondary btn--size-small" onClick={run(async () => t('webhooks.pingQueued', { delivery: String((await post(t, `${base}/ping`)).delivery) }))}>
        {t('webhooks.ping')}
      </button>
      <button
        type="button"
        className="btn btn--style-secondary btn--size-small"
        onClick={run(async () => {
          const answer = await post(t, `${base}/rotate-secret`)
          setSecret(String(answer.secret))
          return t('webhooks.rotated', { until: new Date(String(answer.previousSecretUntil)).toLocaleString(lang) })
        })}
      >
        {t('webhooks.rotate')}
      </button>
      <button type="button" className="btn btn--style-secondary btn--size-small" onClick={run(async () => t('webhooks.redeliveringAll', { count: ((await post(t, `${base}/redeliver`, { all: true })).redelivering as unknown[]).length }))}>
        {t('webhooks.redeliverAll')}
      </button>
      <a href={`/admin/collections/webhook-deliveries?where[webhook][equals]=${id}`}>{t('webhooks.log')}</a>
      {message && <p role="status">{message}</p>}
      {secret && <input readOnly aria-label={t('webhooks.newSecret')} value={secret} style={{ width: '100%', fontFamily: 'monospace' }} onFocus={(e) => e.currentTarget.select()} />}
    </div>
  )
}

export function RedeliverButton() {
  const { id } = useDocumentInfo()
  const webhook = useFormFields(([fields]) => fields.webhook?.value) as number | { id: number } | undefined
  const { message, run } = useAction()
  const { t } = useAdminT()
  const hook = typeof webhook === 'object' ? webhook?.id : webhook
  if (!id || !hook) return null
  return (
    <div style={{ marginBottom: 'var(--base)' }}>
      <button type="button" className="btn btn--style-secondary btn--size-small" onClick={run(async () => t('webhooks.redelivering', { ids: JSON.stringify((await post(t, `/api/webhooks/${hook}/redeliver`, { delivery: id })).redelivering) }))}>
        {t('webhooks.redeliver')}
      </button>
      {message && <p role="status">{message}</p>}
    </div>
  )
}
