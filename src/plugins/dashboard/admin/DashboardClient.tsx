'use client'
/**
 * The dashboard in the browser: totals with their change over the period, a
 * day / month / year switch, and charts (recharts) of new articles, replies,
 * users and views, per category, per tag and per article. Every chart has a
 * text summary (also its accessible name) and a table view; colours follow
 * Payload's light or dark theme.
 */
import { useTheme } from '@payloadcms/ui'
import React, { useEffect, useState } from 'react'
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts'

import type { Period } from '../queries'
import type { DashboardData } from '../stats'
import { bucketLabel, ChartFigure, percent, rangeLabel, sumOf, type Column } from './ChartFigure'
import { busiest, groupSummary, viewsSentence } from './wording'

const PALETTES = {
  light: { articles: '#2563eb', replies: '#c2410c', users: '#047857', views: '#7c3aed', grid: '#e4e4e7', text: '#3f3f46' },
  dark: { articles: '#60a5fa', replies: '#fb923c', users: '#34d399', views: '#c4b5fd', grid: '#3f3f46', text: '#d4d4d8' },
}
export type Palette = (typeof PALETTES)['light']

const PERIOD_LABELS: Record<Period, string> = { day: 'Day', month: 'Month', year: 'Year' }

const box: React.CSSProperties = {
  background: 'var(--theme-elevation-50)',
  border: '1px solid var(--theme-elevation-150)',
  borderRadius: 'var(--style-radius-m, 4px)',
  padding: '1rem',
}

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: DashboardData }

function useDashboard(apiUrl: string, period: Period, articleId: number | undefined): State {
  const [state, setState] = useState<State>({ status: 'loading' })
  useEffect(() => {
    const controller = new AbortController()
    const query = new URLSearchParams({ period })
    if (articleId !== undefined) query.set('article', String(articleId))
    fetch(`${apiUrl}?${query}`, { credentials: 'include', signal: controller.signal })
      .then(async (response) => {
        const body = await response.json()
        if (!response.ok) setState({ status: 'error', message: body?.errors?.[0]?.message ?? `The dashboard could not load (HTTP ${response.status}).` })
        else setState({ status: 'ready', data: body as DashboardData })
      })
      .catch((error: Error) => {
        if (error.name !== 'AbortError') setState({ status: 'error', message: `The dashboard could not load: ${error.message}` })
      })
    return () => controller.abort()
  }, [apiUrl, period, articleId])
  return state
}

export function DashboardClient({ apiUrl, scope }: { apiUrl: string; scope: 'site' | 'author' }) {
  const [period, setPeriod] = useState<Period>('day')
  const [articleId, setArticleId] = useState<number | undefined>()
  const state = useDashboard(apiUrl, period, articleId)
  const { theme } = useTheme()
  const palette = PALETTES[theme === 'dark' ? 'dark' : 'light']
  const data = state.status === 'ready' ? state.data : undefined

  return (
    <section id="dashboard" className="inkwell-dashboard" data-testid="dashboard" data-period={data?.period} aria-busy={state.status === 'loading'} style={{ marginBottom: '2.5rem' }}>
      <header style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '1rem', marginBottom: '1rem' }}>
        <div>
          <h2 style={{ margin: 0 }}>{scope === 'site' ? 'Site statistics' : 'Your articles’ statistics'}</h2>
          {data && (
            <p style={{ margin: '0.25rem 0 0', color: 'var(--theme-elevation-600)' }} data-testid="dashboard-range">
              {rangeLabel(data)} · times in {data.timeZone} · updated at most a minute ago
            </p>
          )}
        </div>
        <div role="group" aria-label="Group statistics by" style={{ display: 'flex', gap: '0.25rem' }}>
          {(Object.keys(PERIOD_LABELS) as Period[]).map((p) => (
            <button
              key={p}
              type="button"
              className={`btn btn--size-small ${p === period ? 'btn--style-primary' : 'btn--style-secondary'}`}
              style={{ margin: 0 }}
              aria-pressed={p === period}
              data-testid={`dashboard-period-${p}`}
              onClick={() => setPeriod(p)}
            >
              {PERIOD_LABELS[p]}
            </button>
          ))}
        </div>
      </header>
      {state.status === 'error' && (
        <p role="alert" data-testid="dashboard-error" style={box}>
          {state.message}
        </p>
      )}
      {state.status === 'loading' && <p style={box}>Loading statistics…</p>}
      {data && <DashboardBody data={data} palette={palette} onArticle={setArticleId} />}
    </section>
  )
}

function DashboardBody({ data, palette, onArticle }: { data: DashboardData; palette: Palette; onArticle: (id: number) => void }) {
  const series = data.series.map((p) => ({ ...p, label: bucketLabel(p.bucket, data.period) }))
  const unit = data.period
  const timeColumns: Column[] = [
    { key: 'articles', label: 'Published articles' },
    { key: 'replies', label: 'New replies' },
    ...(data.scope === 'site' ? [{ key: 'users', label: 'New users' }] : []),
  ]
  return (
    <div style={{ display: 'grid', gap: '1rem' }}>
      <Totals data={data} />
      <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(22rem, 1fr))' }}>
        <ChartFigure
          id="activity"
          title={`Published articles, replies${data.scope === 'site' ? ' and new users' : ''} per ${unit}`}
          summary={`In ${rangeLabel(data)}: ${timeColumns.map((c) => `${sumOf(series, c.key).toLocaleString('en')} ${c.label.toLowerCase()}`).join(', ')}. Busiest ${unit} for replies: ${busiest(series, 'replies')}.`}
          rows={series}
          rowLabel={unit[0]!.toUpperCase() + unit.slice(1)}
          columns={timeColumns}
          style={box}
        >
          <LineChart data={series} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" />
            <XAxis dataKey="label" stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} minTickGap={16} />
            <YAxis allowDecimals={false} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} width={48} />
            <Tooltip contentStyle={tooltipStyle} />
            <Legend wrapperStyle={{ color: palette.text }} />
            <Line type="linear" dataKey="articles" name="Published articles" stroke={palette.articles} strokeWidth={2} dot={false} isAnimationActive={false} />
            <Line type="linear" dataKey="replies" name="New replies" stroke={palette.replies} strokeWidth={2} dot={false} isAnimationActive={false} />
            {data.scope === 'site' && <Line type="linear" dataKey="users" name="New users" stroke={palette.users} strokeWidth={2} dot={false} isAnimationActive={false} />}
          </LineChart>
        </ChartFigure>
        <ChartFigure
          id="views"
          title={`Views per ${unit}`}
          summary={viewsSentence(series, rangeLabel(data), `the busiest ${unit}`)}
          rows={series}
          rowLabel={unit[0]!.toUpperCase() + unit.slice(1)}
          columns={[{ key: 'views', label: 'Views' }]}
          style={box}
        >
          <AreaChart data={series} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" />
            <XAxis dataKey="label" stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} minTickGap={16} />
            <YAxis allowDecimals={false} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} width={48} />
            <Tooltip contentStyle={tooltipStyle} />
            <Area type="linear" dataKey="views" name="Views" stroke={palette.views} fill={palette.views} fillOpacity={0.25} isAnimationActive={false} />
          </AreaChart>
        </ChartFigure>
        <GroupChart id="categories" title="Articles per category" group="category" rows={data.categories} data={data} palette={palette} />
        <GroupChart id="tags" title="Articles per tag" group="tag" rows={data.tags} data={data} palette={palette} />
      </div>
      <ArticleViewsChart data={data} palette={palette} onArticle={onArticle} />
    </div>
  )
}

const tooltipStyle: React.CSSProperties = {
  background: 'var(--theme-elevation-0)',
  border: '1px solid var(--theme-elevation-150)',
  color: 'var(--theme-text)',
}

function Totals({ data }: { data: DashboardData }) {
  const { totals } = data
  const period = `in ${rangeLabel(data)}`
  const rate = totals.commentRate
  const points = (rate.now - rate.atStart) * 100
  const cards = [
    ...(totals.users ? [{ id: 'users', label: 'Users', value: totals.users.total.toLocaleString('en'), change: `+${totals.users.inPeriod.toLocaleString('en')} ${period}` }] : []),
    { id: 'articles', label: 'Published articles', value: totals.articles.total.toLocaleString('en'), change: `+${totals.articles.inPeriod.toLocaleString('en')} ${period}` },
    { id: 'replies', label: 'Comments', value: totals.replies.total.toLocaleString('en'), change: `+${totals.replies.inPeriod.toLocaleString('en')} ${period}` },
    {
      id: 'comment-rate',
      label: 'Comment rate',
      value: percent(rate.now),
      change: `${points >= 0 ? '+' : '−'}${Math.abs(points).toFixed(1)} points since the period began (${percent(rate.atStart)})`,
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
        Comment rate: published articles with at least one reply ÷ published articles ({rate.repliedNow.toLocaleString('en')} of{' '}
        {totals.articles.total.toLocaleString('en')}). Scheduled articles count once published; drafts never.
      </p>
    </div>
  )
}

function GroupChart({ id, title, group, rows, data, palette }: { id: string; title: string; group: 'tag' | 'category'; rows: DashboardData['tags']; data: DashboardData; palette: Palette }) {
  const published = data.series.reduce((sum, point) => sum + point.articles, 0)
  const summary = groupSummary(rows, published, rangeLabel(data), group)
  return (
    <ChartFigure
      id={id}
      title={title}
      summary={summary}
      rows={rows.map((r) => ({ ...r, label: r.name }))}
      rowLabel="Name"
      columns={[
        { key: 'articles', label: 'Articles' },
        { key: 'replies', label: 'Replies' },
        { key: 'views', label: 'Views' },
      ]}
      style={box}
    >
      <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={palette.grid} strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} />
        <YAxis type="category" dataKey="name" interval={0} stroke={palette.text} tick={{ fill: palette.text, fontSize: 12 }} width={110} />
        <Tooltip contentStyle={tooltipStyle} cursor={{ fill: palette.grid }} />
        <Bar dataKey="articles" name="Articles" fill={palette.articles} isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  )
}

function ArticleViewsChart({ data, palette, onArticle }: { data: DashboardData; palette: Palette; onArticle: (id: number) => void }) {
  const article = data.article
  const series = (article?.series ?? []).map((p) => ({ ...p, label: bucketLabel(p.bucket, data.period) }))
  const options = data.topArticles.some((a) => a.id === article?.id) || !article ? data.topArticles : [{ id: article.id, title: article.title, views: sumOf(series, 'views') }, ...data.topArticles]
  const title = article ? `Views of “${article.title}” per ${data.period}` : 'Views per article'
  const summary = article
    ? viewsSentence(series, rangeLabel(data), `its busiest ${data.period}`, `“${article.title}” had `)
    : `No article has recorded views in ${rangeLabel(data)} yet.`
  return (
    <ChartFigure
      id="article-views"
      title={title}
      summary={summary}
      rows={series}
      rowLabel={data.period[0]!.toUpperCase() + data.period.slice(1)}
      columns={[{ key: 'views', label: 'Views' }]}
      style={box}
      controls={
        options.length > 0 && (
          <label style={{ display: 'flex', gap: '0.5rem', alignItems: 'center' }}>
            Article
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
          <Bar dataKey="views" name="Views" fill={palette.views} isAnimationActive={false} />
        </BarChart>
      ) : undefined}
    </ChartFigure>
  )
}
