/**
 * The import page, an admin view at /admin/import inside Payload's own
 * template: the site owner uploads a WordPress or Ghost export with the
 * options the commands take (ImportUploader), watches the queued import's
 * progress and reads its report; the latest imports are listed below.
 * Payload lets anyone reach a custom view, so the rule (`importPageAccess`)
 * is applied here: a visitor who is not signed in is sent to sign in, anyone
 * without `import.run` gets a "403 — not allowed" page. The upload is refused
 * by the collection as well (import-reports' access), whoever sends it.
 * Its words are the catalogs' (src/lib/i18n), in the admin user's language.
 */
import type { AdminViewServerProps } from 'payload'

import { redirect } from 'next/navigation'
import React from 'react'

import { InPayloadTemplate } from '../../languages/admin/InPayloadTemplate'
import { adminTranslator } from '../../languages/admin/adminLanguage'
import { rich } from '../../languages/admin/rich'
import { signInURL } from '../../jobs/admin/queueConsoleData'
import { IMPORT_PAGE_PATH, importPageAccess } from './importAccess'
import { ImportUploader } from './ImportUploader'

const cell: React.CSSProperties = { border: '1px solid var(--theme-elevation-150)', padding: '0.35rem 0.6rem', textAlign: 'left', verticalAlign: 'top' }

export async function ImportView(props: AdminViewServerProps) {
  const { req } = props.initPageResult
  const t = adminTranslator(req.i18n)
  const admin = req.payload.config.routes.admin
  const access = await importPageAccess(req)
  if (access === 'sign-in') redirect(signInURL(req.payload, `${admin}${IMPORT_PAGE_PATH}`))
  if (access === 'forbidden') {
    return (
      <main style={{ maxWidth: '40rem', margin: '4rem auto', padding: '0 1.5rem' }} data-testid="import-refused">
        <h1>{t('queues.refusedTitle')}</h1>
        <p>{rich(t('import.refused'), { permission: <code>import.run</code> })}</p>
        <p>
          <a href={admin}>{t('queues.backToAdmin')}</a> · <a href={`${admin}/login`}>{t('queues.signInOther')}</a>
        </p>
      </main>
    )
  }
  const recent = await req.payload.find({ collection: 'import-reports', limit: 10, depth: 0, sort: '-createdAt', overrideAccess: false, req })
  const maxBytes = Number((req.payload.config.upload as { limits?: { fileSize?: number } })?.limits?.fileSize ?? 0)
  return (
    <InPayloadTemplate view={props}>
      <div className="gutter--left gutter--right" style={{ paddingBottom: '3rem', maxWidth: '60rem' }} data-testid="import-page">
        <h1>{t('import.title')}</h1>
        <p>{t('import.intro')}</p>
        <ImportUploader maxBytes={maxBytes} api={req.payload.config.routes.api} />
        <h2>{t('import.recent')}</h2>
        {recent.docs.length === 0 ? (
          <p>{t('import.noRecent')}</p>
        ) : (
          <table style={{ borderCollapse: 'collapse', width: '100%' }} data-testid="import-recent">
            <thead>
              <tr>
                {(['file', 'status', 'summary', 'when'] as const).map((h) => (
                  <th key={h} style={cell}>{t(`import.col.${h}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {recent.docs.map((doc) => (
                <tr key={doc.id}>
                  <td style={cell}>
                    <a href={`${admin}/collections/import-reports/${doc.id}`}>{doc.file}</a>
                  </td>
                  <td style={cell}>{t(`import.status.${doc.status}`)}</td>
                  <td style={cell}>{doc.error ?? doc.summary ?? ''}</td>
                  <td style={cell}>{new Date(doc.createdAt).toISOString().slice(0, 16).replace('T', ' ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </InPayloadTemplate>
  )
}
