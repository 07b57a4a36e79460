/**
 * The queue console, an admin view at /admin/queues inside Payload's own
 * template (navigation, header, theme). Payload lets anyone reach a custom
 * view, so the rule (`queueConsoleAccess`) is applied here: a visitor who is
 * not signed in is sent to the login, and without `queue.monitor` the view
 * shows a clear "403 — not allowed" page. A view cannot set its HTTP status
 * (Payload's RootPage answers 200, even for Next's forbidden()), so the
 * one-origin server applies the same rule first and answers 403 itself
 * (src/server/guardedAdminViews.ts); the refusal here covers any other host.
 * The console's actions answer 403 JSON (POST /api/queue-console/jobs).
 * Its words are the catalogs' (src/lib/i18n), in the admin user's language.
 */
import type { AdminViewServerProps } from 'payload'

import type { Translate } from '../../../lib/i18n'

import { redirect } from 'next/navigation'
import React from 'react'

import { InPayloadTemplate } from '../../languages/admin/InPayloadTemplate'
import { adminTranslator } from '../../languages/admin/adminLanguage'
import { rich } from '../../languages/admin/rich'
import { JOB_STATES, loadQueueConsole, QUEUE_CONSOLE_ACTION_PATH, QUEUE_CONSOLE_PATH, queueConsoleAccess, signInURL } from './queueConsoleData'

const cell: React.CSSProperties = { border: '1px solid var(--theme-elevation-150)', padding: '0.35rem 0.6rem', textAlign: 'left', verticalAlign: 'top' }
const number: React.CSSProperties = { ...cell, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }
const table: React.CSSProperties = { borderCollapse: 'collapse', width: '100%', marginBottom: '2rem' }
const pre: React.CSSProperties = { margin: 0, whiteSpace: 'pre-wrap', maxWidth: '36rem', fontSize: 12 }

function NotAllowed({ t, admin }: { t: Translate; admin: string }) {
  return (
    <main style={{ maxWidth: '40rem', margin: '4rem auto', padding: '0 1.5rem' }} data-testid="queue-console-refused">
      <h1>{t('queues.refusedTitle')}</h1>
      <p>{rich(t('queues.refused'), { permission: <code>queue.monitor</code> })}</p>
      <p>
        <a href={admin}>{t('queues.backToAdmin')}</a> · <a href={`${admin}/login`}>{t('queues.signInOther')}</a>
      </p>
    </main>
  )
}

export async function QueueConsoleView(props: AdminViewServerProps) {
  const { req } = props.initPageResult
  const t = adminTranslator(req.i18n)
  const access = await queueConsoleAccess(req)
  if (access === 'sign-in') redirect(signInURL(req.payload, `${req.payload.config.routes.admin}${QUEUE_CONSOLE_PATH}`))
  if (access === 'forbidden') return <NotAllowed t={t} admin={req.payload.config.routes.admin} />
  const data = await loadQueueConsole(req.payload)
  const action = `${req.payload.config.routes.api}${QUEUE_CONSOLE_ACTION_PATH}`
  return (
    <InPayloadTemplate view={props}>
      <div className="gutter--left gutter--right" style={{ paddingBottom: '3rem' }} data-testid="queue-console">
        <h1>{t('queues.title')}</h1>
        {data.mode === 'sync' ? (
          <p>{rich(t('queues.syncMode'), { sync: <strong>QUEUE_CONNECTION=sync</strong>, pgboss: <code>QUEUE_CONNECTION=pgboss</code> })}</p>
        ) : (
          <>
            <h2>{t('queues.byState')}</h2>
            <table style={table}>
              <thead>
                <tr>
                  <th style={cell}>{t('queues.col.queue')}</th>
                  {JOB_STATES.map((s) => (
                    <th key={s} style={cell}>{t(`queues.state.${s}`)}</th>
                  ))}
                  <th style={cell}>{t('queues.col.deadLetter')}</th>
                  <th style={cell}>{t('queues.col.lastHour')}</th>
                </tr>
              </thead>
              <tbody>
                {data.queues.map((q) => (
                  <tr key={q.name}>
                    <td style={cell}>{q.name}</td>
                    {JOB_STATES.map((s) => (
                      <td key={s} style={number}>{q.byState[s]}</td>
                    ))}
                    <td style={number}>{q.deadLetter}</td>
                    <td style={number}>{q.lastHour}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <h2>{t('queues.dead')}</h2>
            <div data-testid="queue-console-dead">
              {data.dead.total === 0 ? (
                <p>{t('queues.noDead')}</p>
              ) : (
                <>
                  <p>
                    {rich(t('queues.deadExplain', { count: data.dead.total }), {
                      total: <strong data-testid="queue-console-dead-total">{data.dead.total}</strong>,
                    })}
                  </p>
                  <form method="post" action={action} style={{ marginBottom: '1rem' }}>
                    <input type="hidden" name="action" value="retry-dead" />
                    <button type="submit" data-testid="queue-console-retry-dead">{t('queues.retryDead', { count: data.dead.total })}</button>
                  </form>
                  <table style={table}>
                    <thead>
                      <tr>
                        {[t('queues.col.queue'), t('queues.col.deadSince'), t('queues.col.data')].map((h) => (
                          <th key={h} style={cell}>{h}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {data.dead.latest.map((job) => (
                        <tr key={job.id}>
                          <td style={cell}>
                            {job.queue}
                            <br />
                            <small>{job.id}</small>
                          </td>
                          <td style={cell}>{job.deadSince}</td>
                          <td style={cell}><pre style={pre}>{job.data}</pre></td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </>
              )}
            </div>
            <h2>{t('queues.failed')}</h2>
            {data.failed.length === 0 ? (
              <p>{t('queues.noFailed')}</p>
            ) : (
              <table style={table}>
                <thead>
                  <tr>
                    {(['job', 'failedAt', 'error', 'data', 'retries', 'actions'] as const).map((h) => (
                      <th key={h} style={cell}>{t(`queues.col.${h}`)}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.failed.map((job) => (
                    <tr key={job.id}>
                      <td style={cell}>
                        {job.name}
                        <br />
                        <small>{job.id}</small>
                      </td>
                      <td style={cell}>{job.failedAt}</td>
                      <td style={cell}><pre style={pre}>{job.error}</pre></td>
                      <td style={cell}><pre style={pre}>{job.data}</pre></td>
                      <td style={number}>{job.retries}</td>
                      <td style={cell}>
                        {(['retry', 'delete'] as const).map((a) => (
                          <form key={a} method="post" action={action} style={{ display: 'inline', marginRight: '0.5rem' }}>
                            <input type="hidden" name="action" value={a} />
                            <input type="hidden" name="name" value={job.name} />
                            <input type="hidden" name="id" value={job.id} />
                            <button type="submit">{t(`queues.${a}`)}</button>
                          </form>
                        ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h2>{t('queues.schedules')}</h2>
            {data.schedules.length === 0 ? (
              <p>{t('queues.noSchedules')}</p>
            ) : (
              <table style={table}>
                <thead>
                  <tr>
                    {[t('queues.col.schedule'), t('queues.col.when'), t('queues.col.nextRun')].map((h) => (
                      <th key={h} style={cell}>{h}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.schedules.map((s) => (
                    <tr key={s.name}>
                      <td style={cell}>{s.name}</td>
                      <td style={cell}>
                        <code>{s.cron}</code> {s.timeZone}
                      </td>
                      <td style={cell}>{s.nextRun}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </div>
    </InPayloadTemplate>
  )
}
