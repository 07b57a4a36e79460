'use client'
/**
 * The dashboard in the browser: totals with their change over the period, a
 * day / month / year switch, and charts (recharts) of new articles, replies,
 * users and views, per category, per tag and per article. Every chart has a
 * text summary (also its accessible name) and a table view; colours follow
 * Payload's light or dark theme. Its words are the catalogs' (src/lib/i18n),
 * in the admin user's language (useAdminT).
 */
import { useTheme } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts'

import { formatNumber, type Language, type Translate } from '../../../lib/i18n'
import { useAdminT } from '../../languages/admin/useAdminT'
import type { Period } from '../queries'
import type { DashboardData } from '../stats'
import { bucketLabel, ChartFigure, percent, sumOf, type Column } from './ChartFigure'
import { busiest, groupSummary, rangeLabel, viewsSentence } from './wording'

const PALETTES = {
  light: { articles: '#2563eb', replies: '#c2410c', users: '#047857', views: '#7c3aed', grid: '#e4e4e7', text: '#3f3f46' },
  dark: { articles: '#60a5fa', replies: '#fb923c', users: '#34d399', views: '#c4b5fd', grid: '#3f3f46', text: '#d4d4d8' },
}
export type Palette = (typeof PALETTES)['light']

const PERIODS: Period[] = ['day', 'month', 'year']

const box: React.CSSProperties = {
  background: 'var(--theme-elevation-50)',
  border: '1px solid var(--theme-elevation-150)',
  borderRadius: 'var(--style-radius-m, 4px)',
  padding: '1rem',
}

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: DashboardData }

function useDashboard(t: Translate, apiUrl: string, period: Period, articleId: number | undefined): State {
  const [state, setState] = useState<State>({ status: 'loading' })
  useEffect(() => {
    const controller = new AbortController()
    const query = new URLSearchParams({ period })
    if (articleId !== undefined) query.set('article', String(articleId))
    fetch(`${apiUrl}?${query}`, { credentials: 'include', signal: controller.signal })
      .then(async (response) => {
        const body = await response.json()
        if (!response.ok) setState({ status: 'error', message: body?.errors?.[0]?.message ?? t('dashboard.loadFailed', { status: String(response.status) }) })
        else setState({ status: 'ready', data: body as DashboardData })
      })
      .catch((error: Error) => {
        if (error.name !== 'AbortError') setState({ status: 'error', message: t('dashboard.loadError', { message: error.message }) })
      })
    return () => controller.abort()
  }, [t, apiUrl, period, articleId])
  return state
}

export function DashboardClient({ apiUrl, scope }: { apiUrl: string; scope: 'site' | 'author' }) {
  const [period, setPeriod] = useState<Period>('day')
  const [articleId, setArticleId] = useState<number | undefined>()
  const { t, lang } = useAdminT()
  const state = useDashboard(t, apiUrl, period, articleId)
  const { theme } = useTheme()
  const palette = PALETTES[theme === 'dark' ? 'dark' : 'light']
  const data = state.status === 'ready' ? state.data : undefined

  return (
    <section id="dashboard" className="inkwell-dashboard" data-testid="dashboard" data-period={data?.period} aria-busy={state.status === 'loading'} style={{ marginBottom: '2.5rem' }}>
      <header style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '1rem', marginBottom: '1rem' }}>
        <div>
          <h2 style={{ margin: 0 }}>{t(scope === 'site' ? 'dashboard.titleSite' : 'dashboard.titleAuthor')}</h2>
          {data && (
            <p style={{ margin: '0.25rem 0 0', color: 'var(--theme-elevation-600)' }} data-testid="dashboard-range">
              {t('dashboard.rangeLine', { range: rangeLabel(t, data), zone: data.timeZone })}
            </p>
          )}
        </div>
        <div role="group" aria-label={t('dashboard.groupBy')} style={{ display: 'flex', gap: '0.25rem' }}>
          {PERIODS.map((p) => (
            <button
              key={p}
              type="button"
              className={`btn btn--size-small ${p === period ? 'btn--style-primary' : 'btn--style-secondary'}`}
              style={{ margin: 0 }}
              aria-pressed={p === period}
              data-testid={`dashboard-period-${p}`}
              onClick={() => setPeriod(p)}
            >
              {t(`dashboard.period.${p}`)}
            </button>
          ))}
        </div>
      </header>
      {state.status === 'error' && (
        <p role="alert" data-testid="dashboard-error" style={box}>
          {state.message}
        </p>
      )}
      {state.status === 'loading' && <p style={box}>{t('dashboard.loading')}</p>}
      {data && <DashboardBody t={t} lang={lang} data={data} palette={palette} onArticle={setArticleId} />}
    </section>
  )
}

type Words = { t: Translate; lang: Language }

/** "Day" for a table's first column: the unit's word with a capital (a no-op in Chinese). */
const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

function DashboardBody({ t, lang, data, palette, onArticle }: Words & { data: DashboardData; palette: Palette; onArticle: (id: number) => void }) {
  const series = data.series.map((p) => ({ ...p, label: bucketLabel(lang, p.bucket, data.period) }))
  const unit = t(`dashboard.unit.${data.period}`)
  const range = rangeLabel(t, data)
  const timeColumns: Column[] = [
    { key: 'articles', label: t('dashboard.col.articles') },
    { key: 'replies', label: t('dashboard.col.replies') },
    ...(data.scope === 'site' ? [{ key: 'users', label: t('dashboard.col.users') }] : []),
  ]
  const totals = timeColumns.map((c) => t('dashboard.countOf', { count: sumOf(series, c.key), label: lang === 'en' ? c.label.toLowerCase() : c.label }))
  return (
    <div style={{ display: 'grid', gap: '1rem' }}>
      <Totals t={t} lang={lang} data={data} />
      <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(22rem, 1fr))' }}>
        <ChartFigure
          id="activity"
          title={t(data.scope === 'site' ? 'dashboard.activityTitleSite' : 'dashboard.activityTitleAuthor', { unit })}
          summary={t('dashboard.activitySummary', { range, totals: totals.join(t('dashboard.listJoin')), unit, busiest: busiest(t, lang, series, 'replies') })}
          rows={series}
          rowLabel={capitalised(unit)}
          columns={timeColumns}
          style={box}
        >
          <LineChart data={series} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" />
            <XAxis dataKey="label" stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} minTickGap={16} />
            <YAxis allowDecimals={false} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} width={48} />
            <Tooltip contentStyle={tooltipStyle} />
            <Legend wrapperStyle={{ color: palette.text }} />
            <Line type="linear" dataKey="articles" name={t('dashboard.col.articles')} stroke={palette.articles} strokeWidth={2} dot={false} isAnimationActive={false} />
            <Line type="linear" dataKey="replies" name={t('dashboard.col.replies')} stroke={palette.replies} strokeWidth={2} dot={false} isAnimationActive={false} />
            {data.scope === 'site' && <Line type="linear" dataKey="users" name={t('dashboard.col.users')} stroke={palette.users} strokeWidth={2} dot={false} isAnimationActive={false} />}
          </LineChart>
        </ChartFigure>
        <ChartFigure
          id="views"
          title={t('dashboard.viewsTitle', { unit })}
          summary={viewsSentence(t, lang, series, range, t('dashboard.busiest', { unit }))}
          rows={series}
          rowLabel={capitalised(unit)}
          columns={[{ key: 'views', label: t('dashboard.col.views') }]}
          style={box}
        >
          <AreaChart data={series} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" />
            <XAxis dataKey="label" stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} minTickGap={16} />
            <YAxis allowDecimals={false} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} width={48} />
            <Tooltip contentStyle={tooltipStyle} />
            <Area type="linear" dataKey="views" name={t('dashboard.col.views')} stroke={palette.views} fill={palette.views} fillOpacity={0.25} isAnimationActive={false} />
          </AreaChart>
        </ChartFigure>
        <GroupChart t={t} lang={lang} id="categories" title={t('dashboard.perCategory')} group="category" rows={data.categories} data={data} palette={palette} />
        <GroupChart t={t} lang={lang} id="tags" title={t('dashboard.perTag')} group="tag" rows={data.tags} data={data} palette={palette} />
      </div>
      <ArticleViewsChart t={t} lang={lang} data={data} palette={palette} onArticle={onArticle} />
    </div>
  )
}

const tooltipStyle: React.CSSProperties = {
  background: 'var(--theme-elevation-0)',
  border: '1px solid var(--theme-elevation-150)',
  color: 'var(--theme-text)',
}

function Totals({ t, lang, data }: Words & { data: DashboardData }) {
  const { totals } = data
  const range = rangeLabel(t, data)
  const rate = totals.commentRate
  const points = (rate.now - rate.atStart) * 100
  const n = (value: number) => formatNumber(lang, value)
  const added = (count: number) => t('dashboard.addedIn', { count, range })
  const cards = [
    ...(totals.users ? [{ id: 'users', label: t('dashboard.users'), value: n(totals.users.total), change: added(totals.users.inPeriod) }] : []),
    { id: 'articles', label: t('dashboard.col.articles'), value: n(totals.articles.total), change: added(totals.articles.inPeriod) },
    { id: 'replies', label: t('dashboard.comments'), value: n(totals.replies.total), change: added(totals.replies.inPeriod) },
    {
      id: 'comment-rate',
      label: t('dashboard.commentRate'),
      value: percent(rate.now),
      change: t('dashboard.pointsSince', { sign: points >= 0 ? '+' : '−', points: Math.abs(points).toFixed(1), start: percent(rate.atStart) }),
    },
  ]
  return (
    <div>
      <dl style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(12rem, 1fr))', margin: 0 }}>
        {cards.map((card) => (
          <div key={card.id} style={box} data-testid={`dashboard-total-${card.id}`}>
            <dt style={{ color: 'var(--theme-elevation-600)' }}>{card.label}</dt>
            <dd style={{ margin: '0.25rem 0', fontSize: '1.75rem', fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>{card.value}</dd>
            <dd style={{ margin: 0, color: 'var(--theme-elevation-600)', fontSize: '0.85rem' }}>{card.change}</dd>
          </div>
        ))}
      </dl>
      <p style={{ margin: '0.5rem 0 0', fontSize: '0.85rem', color: 'var(--theme-elevation-600)' }}>
        {t('dashboard.rateNote', { replied: rate.repliedNow, total: totals.articles.total })}
      </p>
    </div>
  )
}

function GroupChart({ t, id, title, group, rows, data, palette }: Words & { id: string; title: string; group: 'tag' | 'category'; rows: DashboardData['tags']; data: DashboardData; palette: Palette }) {
  const published = data.series.reduce((sum, point) => sum + point.articles, 0)
  const summary = groupSummary(t, rows, published, rangeLabel(t, data), group)
  return (
    <ChartFigure
      id={id}
      title={title}
      summary={summary}
      rows={rows.map((r) => ({ ...r, label: r.name }))}
      rowLabel={t('dashboard.col.name')}
      columns={[
        { key: 'articles', label: t('dashboard.col.groupArticles') },
        { key: 'replies', label: t('dashboard.col.groupReplies') },
        { key: 'views', label: t('dashboard.col.views') },
      ]}
      style={box}
    >
      <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <YAxis type="category" dataKey="name" interval={0} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} width={110} />
        <Tooltip contentStyle={tooltipStyle} cursor={{ fill: palette.grid }} />
        <Bar dataKey="articles" name={t('dashboard.col.groupArticles')} fill={palette.articles} isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  )
}

function ArticleViewsChart({ t, lang, data, palette, onArticle }: Words & { data: DashboardData; palette: Palette; onArticle: (id: number) => void }) {
  const article = data.article
  const unit = t(`dashboard.unit.${data.period}`)
  const range = rangeLabel(t, data)
  const series = (article?.series ?? []).map((p) => ({ ...p, label: bucketLabel(lang, p.bucket, data.period) }))
  const options = data.topArticles.some((a) => a.id === article?.id) || !article ? data.topArticles : [{ id: article.id, title: article.title, views: sumOf(series, 'views') }, ...data.topArticles]
  const title = article ? t('dashboard.articleViewsTitle', { title: article.title, unit }) : t('dashboard.perArticle')
  const summary = article ? viewsSentence(t, lang, series, range, t('dashboard.itsBusiest', { unit }), article.title) : t('dashboard.noArticleViews', { range })
  return (
    <ChartFigure
      id="article-views"
      title={title}
      summary={summary}
      rows={series}
      rowLabel={capitalised(unit)}
      columns={[{ key: 'views', label: t('dashboard.col.views') }]}
      style={box}
      controls={
        options.length > 0 && (
          <label style={{ display: 'flex', gap: '0.5rem', alignItems: 'center' }}>
            {t('dashboard.article')}
            <select value={article?.id ?? ''} onChange={(e) => onArticle(Number(e.target.value))} data-testid="dashboard-article">
              {options.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.title}
                </option>
              ))}
            </select>
          </label>
        )
      }
    >
      {article ? (
        <BarChart data={series} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} minTickGap={16} />
          <YAxis allowDecimals={false} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} width={48} />
          <Tooltip contentStyle={tooltipStyle} cursor={{ fill: palette.grid }} />
          <Bar dataKey="views" name={t('dashboard.col.views')} fill={palette.views} isAnimationActive={false} />
        </BarChart>
      ) : undefined}
    </ChartFigure>
  )
}
