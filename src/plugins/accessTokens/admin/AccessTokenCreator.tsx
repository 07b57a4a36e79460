'use client'
/**
 * Above the admin's list of access tokens: a form that creates one for the
 * signed-in user and shows it once. The admin's own create view would save a
 * token nobody ever sees (the secret is only in the create answer), so tokens
 * are made here, through the same REST endpoint as the site's profile page.
 */
import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'

type Issued = { name: string; token: string }

export function AccessTokenCreator() {
  const router = useRouter()
  const [issued, setIssued] = useState<Issued | null>(null)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

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
      if (!response.ok || !answer.doc) throw new Error(answer.errors?.[0]?.message ?? `The server answered ${response.status}.`)
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
      <h3 id="new-access-token">New access token</h3>
      {issued && (
        <div role="status" style={{ margin: 'var(--base) 0' }}>
          <p>
            Your new token “{issued.name}” is below. Copy it now: it is shown only once, and only its hash is kept.
          </p>
          <label htmlFor="issued-access-token">Token</label>
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
          Name
          <br />
          <input name="name" required maxLength={80} placeholder="backup script" />
        </label>
        <label>
          Scope
          <br />
          <select name="scope" defaultValue="read">
            <option value="read">Read</option>
            <option value="write">Read and write</option>
          </select>
        </label>
        <label>
          Expires on (optional)
          <br />
          <input name="expiresAt" type="date" />
        </label>
        <button type="submit" className="btn btn--style-primary btn--size-small" disabled={busy}>
          Create token
        </button>
      </form>
    </section>
  )
}
