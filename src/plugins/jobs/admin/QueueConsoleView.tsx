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
 */
import type { AdminViewServerProps } from 'payload'

import { DefaultTemplate } from '@payloadcms/next/templates'
import { redirect } from 'next/navigation'
import React from 'react'

import { JOB_STATES, loadQueueConsole, QUEUE_CONSOLE_ACTION_PATH, QUEUE_CONSOLE_PATH, queueConsoleAccess, signInURL } from './queueConsoleData'

const cell: React.CSSProperties = { border: '1px solid var(--theme-elevation-150)', padding: '0.35rem 0.6rem', textAlign: 'left', verticalAlign: 'top' }
const number: React.CSSProperties = { ...cell, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }
const table: React.CSSProperties = { borderCollapse: 'collapse', width: '100%', marginBottom: '2rem' }
const pre: React.CSSProperties = { margin: 0, whiteSpace: 'pre-wrap', maxWidth: '36rem', fontSize: 12 }

function NotAllowed({ admin }: { admin: string }) {
  return (
    <main style={{ maxWidth: '40rem', margin: '4rem auto', padding: '0 1.5rem' }} data-testid="queue-console-refused">
      <h1>403 — not allowed</h1>
      <p>
        The queue console needs the <code>queue.monitor</code> permission, which your account does not hold.
      </p>
      <p>
        <a href={admin}>Back to the admin</a> · <a href={`${admin}/login`}>Sign in as someone else</a>
      </p>
    </main>
  )
}

export async function QueueConsoleView(props: AdminViewServerProps) {
  const { req, visibleEntities, permissions } = props.initPageResult
  const access = await queueConsoleAccess(req)
  if (access === 'sign-in') redirect(signInURL(req.payload, `${req.payload.config.routes.admin}${QUEUE_CONSOLE_PATH}`))
  if (access === 'forbidden') return <NotAllowed admin={req.payload.config.routes.admin} />
  const data = await loadQueueConsole(req.payload)
  const action = `${req.payload.config.routes.api}${QUEUE_CONSOLE_ACTION_PATH}`
  return (
    <DefaultTemplate
      i18n={req.i18n}
      locale={props.initPageResult.locale}
      params={props.params}
      payload={req.payload}
      permissions={permissions}
      req={req}
      searchParams={props.searchParams}
      user={props.user}
      visibleEntities={visibleEntities}
    >
      <div className="gutter--left gutter--right" style={{ paddingBottom: '3rem' }} data-testid="queue-console">
        <h1>Queues</h1>
        {data.mode === 'sync' ? (
          <p>
            <strong>QUEUE_CONNECTION=sync</strong>: jobs run in the web process right after each write, retrying in place. There is no queue to
            monitor. Set <code>QUEUE_CONNECTION=pgboss</code> for a durable queue with retries, a dead-letter queue and this console.
          </p>
        ) : (
          <>
            <h2>Jobs by state</h2>
            <table style={table}>
              <thead>
                <tr>
                  <th style={cell}>Queue</th>
                  {JOB_STATES.map((s) => (
                    <th key={s} style={cell}>{s}</th>
                  ))}
                  <th style={cell}>dead-letter</th>
                  <th style={cell}>completed, last hour</th>
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
            <h2>Dead-lettered jobs</h2>
            <div data-testid="queue-console-dead">
              {data.dead.total === 0 ? (
                <p>No dead-lettered jobs: every job either succeeded or is still being retried.</p>
              ) : (
                <>
                  <p>
                    <strong data-testid="queue-console-dead-total">{data.dead.total}</strong> job(s) ran out of retries and wait in a dead-letter
                    queue, which nobody works. Once the other system is back, send them back to their queue with a fresh retry budget (their
                    handlers are idempotent: nothing already done is done twice).
                  </p>
                  <form method="post" action={action} style={{ marginBottom: '1rem' }}>
                    <input type="hidden" name="action" value="retry-dead" />
                    <button type="submit" data-testid="queue-console-retry-dead">Retry all {data.dead.total} dead-lettered jobs</button>
                  </form>
                  <table style={table}>
                    <thead>
                      <tr>
                        {['Queue', 'Dead since', 'Data'].map((h) => (
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
            <h2>Latest failed jobs</h2>
            {data.failed.length === 0 ? (
              <p>No failed jobs.</p>
            ) : (
              <table style={table}>
                <thead>
                  <tr>
                    {['Job', 'Failed at', 'Error', 'Data', 'Retries', ''].map((h) => (
                      <th key={h} style={cell}>{h}</th>
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
                            <button type="submit">{a === 'retry' ? 'Retry' : 'Delete'}</button>
                          </form>
                        ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h2>Schedules</h2>
            {data.schedules.length === 0 ? (
              <p>No schedules yet.</p>
            ) : (
              <table style={table}>
                <thead>
                  <tr>
                    {['Schedule', 'When', 'Next run'].map((h) => (
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
    </DefaultTemplate>
  )
}
