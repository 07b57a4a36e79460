/**
 * The moderation queue, an admin view at /admin/moderation inside Payload's
 * template: held, spam or reported replies with their score and reasons, the
 * article, the writer's history; approve, spam, trash or hold one or many at
 * once (the checkboxes and the buttons are one form, posted to
 * POST /api/moderation/replies), and optionally block the writers of what is
 * marked spam. QUEUE_PAGE_SIZE replies a page (`?filter=held&page=2`), with
 * previous/next links. Payload lets anyone reach a custom view, so the rule is applied
 * here: signed out → the login; without `replies.moderate` → a "403" page.
 * Its words are the catalogs' (src/lib/i18n), in the admin user's language.
 */
import type { AdminViewServerProps } from 'payload'

import { formatNumber, translator, type Language, type Translate } from '../../../lib/i18n'

import { redirect } from 'next/navigation'
import React from 'react'

import { hasPermission } from '../../../access'
import { signInURL } from '../../jobs/admin/queueConsoleData'
import { InPayloadTemplate } from '../../languages/admin/InPayloadTemplate'
import { adminLanguage } from '../../languages/admin/adminLanguage'
import { rich } from '../../languages/admin/rich'
import { MODERATE } from '../hooks'
import { loadQueue, MODERATION_ACTION_PATH, MODERATION_QUEUE_PATH, pageFrom, QUEUE_FILTERS, type QueueFilter, type QueuePage } from '../queue'

const STATE_KEYS = {
  published: 'moderation.status.published',
  held: 'moderation.status.held',
  spam: 'moderation.status.spam',
  trash: 'moderation.status.trash',
} as const

const cell: React.CSSProperties = { border: '1px solid var(--theme-elevation-150)', padding: '0.35rem 0.6rem', textAlign: 'left', verticalAlign: 'top' }
const table: React.CSSProperties = { borderCollapse: 'collapse', width: '100%', margin: '1rem 0 2rem' }
const body: React.CSSProperties = { margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxWidth: '40rem', maxHeight: '12rem', overflow: 'auto', fontSize: 13 }

/** "showing 101–200 of 340", and links to the pages before and after. */
function Pager({ t, data, href }: { t: Translate; data: QueuePage; href: (page: number) => string }) {
  const first = (data.page - 1) * data.pageSize + 1
  const last = first + data.items.length - 1
  return (
    <p style={{ display: 'flex', gap: '1.25rem', alignItems: 'center' }} data-testid="moderation-pager">
      <span>{t('moderation.showing', { first, last, total: data.total })}</span>
      {data.page > 1 ? <a href={href(data.page - 1)} rel="prev">{t('moderation.previous')}</a> : null}
      {data.page < data.pages ? <a href={href(data.page + 1)} rel="next">{t('moderation.next')}</a> : null}
    </p>
  )
}

export async function ModerationQueueView(props: AdminViewServerProps) {
  const { req } = props.initPageResult
  const admin = req.payload.config.routes.admin
  const lang: Language = adminLanguage(req.i18n)
  const t = translator(lang)
  const stateWord = (state: string) => (Object.hasOwn(STATE_KEYS, state) ? t(STATE_KEYS[state as keyof typeof STATE_KEYS]) : state)
  const wanted = typeof props.searchParams?.filter === 'string' ? props.searchParams.filter : 'held'
  const filter: QueueFilter = QUEUE_FILTERS.includes(wanted as QueueFilter) ? (wanted as QueueFilter) : 'held'
  if (!req.user) redirect(signInURL(req.payload, `${admin}${MODERATION_QUEUE_PATH}`))
  const allowed = await hasPermission(req, MODERATE)
  const data = allowed ? await loadQueue(req.payload, filter, pageFrom(props.searchParams?.page)) : null
  const pageHref = (page: number) => `${admin}${MODERATION_QUEUE_PATH}?filter=${filter}&page=${page}`
  const action = `${req.payload.config.routes.api}${MODERATION_ACTION_PATH}`
  return (
    <InPayloadTemplate view={props}>
      <div className="gutter--left gutter--right" style={{ paddingBottom: '3rem' }} data-testid="moderation-queue">
        <h1>{t('moderation.title')}</h1>
        {!data ? (
          <p data-testid="moderation-refused">{rich(t('moderation.refused'), { permission: <code>replies.moderate</code> })}</p>
        ) : (
          <>
            <p>
              {QUEUE_FILTERS.map((f) => (
                <a key={f} href={`${admin}${MODERATION_QUEUE_PATH}?filter=${f}`} style={{ marginRight: '1.25rem', fontWeight: f === filter ? 700 : 400 }} data-testid={`moderation-filter-${f}`}>
                  {t('moderation.filterCount', { label: t(`moderation.filter.${f}`), count: data.counts[f] })}
                </a>
              ))}
              <a href={`${admin}/globals/site-settings`}>{t('moderation.rules')}</a>
            </p>
            {data.items.length === 0 ? (
              <p data-testid="moderation-empty">{t('moderation.empty')}</p>
            ) : (
              <form method="post" action={action}>
                <input type="hidden" name="filter" value={filter} />
                <input type="hidden" name="page" value={String(data.page)} />
                <Pager t={t} data={data} href={pageHref} />
                <p style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', flexWrap: 'wrap' }}>
                  <button type="submit" name="action" value="approve" data-testid="moderation-approve">{t('moderation.approve')}</button>
                  <button type="submit" name="action" value="spam" data-testid="moderation-spam">{t('moderation.spam')}</button>
                  <button type="submit" name="action" value="trash" data-testid="moderation-trash">{t('moderation.trash')}</button>
                  {filter !== 'held' ? <button type="submit" name="action" value="hold">{t('moderation.hold')}</button> : null}
                  <label style={{ marginLeft: '1rem' }}>
                    <input type="checkbox" name="block" value="on" /> {t('moderation.block')}
                  </label>
                </p>
                <table style={table}>
                  <thead>
                    <tr>
                      {(['select', 'reply', 'score', 'article', 'writer', 'posted'] as const).map((h) => (
                        <th key={h} style={cell}>{t(`moderation.col.${h}`)}</th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((item) => (
                      <tr key={item.id} data-testid="moderation-item" data-reply-id={item.id}>
                        <td style={cell}>
                          <input type="checkbox" name="ids" value={String(item.id)} aria-label={t('moderation.selectReply', { id: String(item.id) })} data-testid={`moderation-select-${item.id}`} />
                        </td>
                        <td style={cell}>
                          <pre style={body}>{item.body}</pre>
                          <small>
                            <a href={`${admin}/collections/replies/${item.id}`}>#{item.id}</a> · {stateWord(item.status)}
                            {item.reports > 0 ? ` · ${t('moderation.reported', { count: item.reports })}` : ''}
                          </small>
                        </td>
                        <td style={cell}>
                          {item.score === null ? '—' : <strong>{item.score.toFixed(2)}</strong>}
                          <ul style={{ margin: '0.25rem 0 0', paddingLeft: '1rem' }}>
                            {item.reasons.map((r) => (
                              <li key={r}>{r}</li>
                            ))}
                          </ul>
                        </td>
                        <td style={cell}>{item.article ? <a href={`/articles/${item.article.id}`}>{item.article.title}</a> : '—'}</td>
                        <td style={cell}>
                          {item.writer ? (
                            <>
                              <a href={`${admin}/collections/users/${item.writer.id}`}>{item.writer.name}</a>
                              {item.writer.blocked ? <strong> {t('moderation.blocked')}</strong> : null}
                              <br />
                              <small>
                                {Object.entries(item.writer.history)
                                  .map(([state, n]) => `${formatNumber(lang, n)} ${stateWord(state)}`)
                                  .join(t('dashboard.listJoin'))}
                              </small>
                            </>
                          ) : (
                            '—'
                          )}
                        </td>
                        <td style={cell}>{new Date(item.createdAt).toISOString().replace('T', ' ').slice(0, 16)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {data.pages > 1 ? <Pager t={t} data={data} href={pageHref} /> : null}
              </form>
            )}
          </>
        )}
      </div>
    </InPayloadTemplate>
  )
}
