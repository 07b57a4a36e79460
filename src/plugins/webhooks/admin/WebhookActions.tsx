'use client'
/**
 * In a webhook's edit view (or a delivery's): send a ping, rotate the signing
 * secret (the new one shown once), redeliver every failed delivery (or this
 * delivery), and open the hook's delivery log. Each calls the plugin's endpoints.
 */
import { useDocumentInfo, useFormFields } from '@payloadcms/ui'
import { useState } from 'react'

async function post(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(path, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) })
  const answer = (await response.json()) as Record<string, unknown> & { errors?: { message: string }[] }
  if (!response.ok) throw new Error(answer.errors?.[0]?.message ?? `The server answered ${response.status}.`)
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
  if (!id) return null
  const base = `/api/webhooks/${id}`
  return (
    <div style={{ display: 'grid', gap: 'calc(var(--base) / 2)', marginBottom: 'var(--base)' }}>
      <button type="button" className="btn btn--style-secondary btn--size-small" onClick={run(async () => `Ping queued (delivery ${(await post(`${base}/ping`)).delivery}).`)}>
        Send a ping
      </button>
      <button
        type="button"
        className="btn btn--style-secondary btn--size-small"
        onClick={run(async () => {
          const answer = await post(`${base}/rotate-secret`)
          setSecret(String(answer.secret))
          return `New secret below, shown once. The old one keeps signing until ${new Date(String(answer.previousSecretUntil)).toLocaleString()}.`
        })}
      >
        Rotate the signing secret
      </button>
      <button type="button" className="btn btn--style-secondary btn--size-small" onClick={run(async () => `Redelivering ${((await post(`${base}/redeliver`, { all: true })).redelivering as unknown[]).length} failed deliveries.`)}>
        Redeliver all failed
      </button>
      <a href={`/admin/collections/webhook-deliveries?where[webhook][equals]=${id}`}>Delivery log</a>
      {message && <p role="status">{message}</p>}
      {secret && <input readOnly aria-label="New signing secret" value={secret} style={{ width: '100%', fontFamily: 'monospace' }} onFocus={(e) => e.currentTarget.select()} />}
    </div>
  )
}

export function RedeliverButton() {
  const { id } = useDocumentInfo()
  const webhook = useFormFields(([fields]) => fields.webhook?.value) as number | { id: number } | undefined
  const { message, run } = useAction()
  const hook = typeof webhook === 'object' ? webhook?.id : webhook
  if (!id || !hook) return null
  return (
    <div style={{ marginBottom: 'var(--base)' }}>
      <button type="button" className="btn btn--style-secondary btn--size-small" onClick={run(async () => `Redelivering: ${JSON.stringify((await post(`/api/webhooks/${hook}/redeliver`, { delivery: id })).redelivering)}.`)}>
        Redeliver
      </button>
      {message && <p role="status">{message}</p>}
    </div>
  )
}
