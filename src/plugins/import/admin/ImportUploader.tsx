'use client'
/**
 * The import page's form: an export file and the commands' options (dry run,
 * the site owner in the export, the category for pages, Ghost's old address,
 * images or not). It posts to /api/import-reports/upload, then follows the
 * queued import by reading its report (GET /api/import-reports/<id>) until it
 * is done or failed: a <progress> element with the counts in words beside it,
 * announced politely, and at the end the report, as the commands print it.
 * Words from the catalogs (src/lib/i18n), in the admin user's language.
 */
import { useEffect, useState, type CSSProperties, type FormEvent } from 'react'

import type { Translate } from '../../../lib/i18n'
import { useAdminT } from '../../languages/admin/useAdminT'

type Counts = { imported: number; existing: number; skipped: number; failed: number }
type Line = { kind: string; id: string; reason: string }
type ReportJson = { counts: Record<string, Counts>; skips: Line[]; failures: Line[]; notes: string[] }
type Run = {
  id: number
  file: string
  status: 'queued' | 'running' | 'done' | 'failed'
  dryRun?: boolean | null
  progressDone?: number | null
  progressTotal?: number | null
  summary?: string | null
  error?: string | null
  report?: ReportJson | null
}
type ErrorAnswer = { errors?: { message: string; data?: { errors?: { message: string }[] } }[] }

const POLL_MS = 700
const COUNT_KEYS = ['imported', 'existing', 'skipped', 'failed'] as const
const KINDS = ['authors', 'categories', 'tags', 'articles', 'pages', 'replies', 'media', 'redirects', 'follows', 'settings'] as const
const cell: CSSProperties = { border: '1px solid var(--theme-elevation-150)', padding: '0.3rem 0.6rem', textAlign: 'left' }
const number: CSSProperties = { ...cell, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }

function errorOf(answer: ErrorAnswer, status: number, t: Translate): string {
  const first = answer.errors?.[0]
  return first?.data?.errors?.[0]?.message ?? first?.message ?? t('import.serverAnswered', { status })
}

function percentOf(run: Run): number {
  if (run.status === 'done') return 100
  const total = Number(run.progressTotal ?? 0)
  return total > 0 ? Math.min(100, Math.floor((Number(run.progressDone ?? 0) / total) * 100)) : 0
}

function Report({ report, t }: { report: ReportJson; t: Translate }) {
  const lists = [
    ['skips', report.skips],
    ['failures', report.failures],
  ] as const
  return (
    <section aria-labelledby="import-report-title" data-testid="import-report">
      <h3 id="import-report-title">{t('import.report')}</h3>
      <table style={{ borderCollapse: 'collapse', marginBottom: '1rem' }}>
        <thead>
          <tr>
            <th style={cell}>{t('import.col.kind')}</th>
            {COUNT_KEYS.map((k) => (
              <th key={k} style={cell}>{t(`import.col.${k}`)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {KINDS.filter((kind) => report.counts[kind]).map((kind) => (
            <tr key={kind} data-testid={`import-count-${kind}`}>
              <td style={cell}>{t(`import.kind.${kind}`)}</td>
              {COUNT_KEYS.map((k) => (
                <td key={k} style={number}>{report.counts[kind]![k]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {lists.map(([name, lines]) =>
        lines.length ? (
          <div key={name}>
            <h4>{t(`import.${name}`)}</h4>
            <ul>
              {lines.map((l, i) => (
                <li key={i}>
                  {t(`import.kind.${l.kind as (typeof KINDS)[number]}`)} {l.id}: {l.reason}
                </li>
              ))}
            </ul>
          </div>
        ) : null,
      )}
      {report.notes.length ? (
        <div>
          <h4>{t('import.notes')}</h4>
          <ul>
            {report.notes.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}

function Progress({ run, t }: { run: Run; t: Translate }) {
  const percent = percentOf(run)
  const total = Number(run.progressTotal ?? 0)
  const known = run.status === 'done' || total > 0
  const words =
    run.status === 'queued' || !known
      ? t(`import.status.${run.status}`)
      : t('import.progress', { done: run.status === 'done' ? Math.max(total, Number(run.progressDone ?? 0)) : Number(run.progressDone ?? 0), total, percent })
  return (
    <div data-testid="import-progress" data-status={run.status} style={{ margin: '1rem 0' }}>
      <label htmlFor="import-progress-bar">{t('import.progressLabel', { file: run.file })}</label>
      <br />
      {/* Without a value, a <progress> shows "working, amount unknown" (queued, or the file is still being read). */}
      {known ? <progress id="import-progress-bar" max={100} value={percent} style={{ width: '100%' }} /> : <progress id="import-progress-bar" style={{ width: '100%' }} />}
      <p role="status" aria-live="polite" data-testid="import-progress-text">
        {words}
      </p>
    </div>
  )
}

export function ImportUploader({ maxBytes, api }: { maxBytes: number; api: string }) {
  const { t } = useAdminT()
  const [run, setRun] = useState<Run | null>(null)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  // Follows the queued import until it ends; one request at a time.
  useEffect(() => {
    if (!run || run.status === 'done' || run.status === 'failed') return
    let stopped = false
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`${api}/import-reports/${run.id}?depth=0`, { credentials: 'include' })
        const answer = (await response.json()) as Run & ErrorAnswer
        if (stopped) return
        if (!response.ok) throw new Error(errorOf(answer, response.status, t))
        setRun(answer)
      } catch (failure) {
        if (!stopped) setError((failure as Error).message)
      }
    }, POLL_MS)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [run, api, t])

  async function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const file = form.get('file')
    if (!(file instanceof File) || file.size === 0) return setError(t('import.error.noFile'))
    if (maxBytes && file.size > maxBytes) return setError(t('import.error.tooLarge', { mb: (maxBytes / 1024 / 1024).toFixed(1) }))
    const body = new FormData()
    body.set('file', file)
    body.set(
      '_payload',
      JSON.stringify({
        dryRun: form.get('dryRun') === 'on',
        skipMedia: form.get('skipMedia') === 'on',
        siteOwner: String(form.get('siteOwner') ?? ''),
        pagesCategory: String(form.get('pagesCategory') ?? ''),
        siteUrl: String(form.get('siteUrl') ?? ''),
      }),
    )
    setBusy(true)
    setError('')
    setRun(null)
    try {
      const response = await fetch(`${api}/import-reports/upload`, { method: 'POST', credentials: 'include', body })
      const answer = (await response.json()) as { doc?: Run } & ErrorAnswer
      if (!response.ok || !answer.doc) throw new Error(errorOf(answer, response.status, t))
      setRun(answer.doc)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }

  const running = busy || (!!run && run.status !== 'done' && run.status !== 'failed')
  return (
    <section aria-labelledby="import-form-title" style={{ marginBottom: '2rem' }}>
      <h2 id="import-form-title">{t('import.formTitle')}</h2>
      <form onSubmit={upload} style={{ display: 'grid', gap: 'var(--base)', maxWidth: '40rem' }} data-testid="import-form">
        <label>
          {t('import.file')}
          <br />
          <input name="file" type="file" accept=".xml,.json,application/xml,text/xml,application/json" required aria-describedby="import-file-hint" />
          <br />
          <small id="import-file-hint">{t('import.fileHint', { mb: (maxBytes / 1024 / 1024).toFixed(1) })}</small>
        </label>
        <label>
          <input name="dryRun" type="checkbox" /> {t('import.dryRun')}
        </label>
        <label>
          {t('import.siteOwner')}
          <br />
          <input name="siteOwner" maxLength={200} style={{ width: '100%' }} />
        </label>
        <label>
          {t('import.pagesCategory')}
          <br />
          <input name="pagesCategory" maxLength={100} placeholder={t('import.pagesCategoryDefault')} style={{ width: '100%' }} />
        </label>
        <label>
          {t('import.siteUrl')}
          <br />
          <input name="siteUrl" type="url" maxLength={500} style={{ width: '100%' }} />
        </label>
        <label>
          <input name="skipMedia" type="checkbox" /> {t('import.skipMedia')}
        </label>
        <div>
          <button type="submit" className="btn btn--style-primary btn--size-medium" disabled={running} data-testid="import-start">
            {busy ? t('import.uploading') : t('import.start')}
          </button>
        </div>
      </form>
      {error && (
        <p role="alert" style={{ color: 'var(--theme-error-500)' }} data-testid="import-error">
          {error}
        </p>
      )}
      {run && <Progress run={run} t={t} />}
      {run?.status === 'failed' && (
        <p role="alert" style={{ color: 'var(--theme-error-500)' }} data-testid="import-failed">
          {t('import.failed', { error: run.error ?? '' })}
        </p>
      )}
      {run?.status === 'done' && run.summary && <p data-testid="import-summary">{run.summary}</p>}
      {run?.status === 'done' && run.report && <Report report={run.report} t={t} />}
    </section>
  )
}
