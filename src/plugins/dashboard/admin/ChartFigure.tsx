'use client'
/**
 * One accessible chart: a title, a text summary (the chart's accessible name
 * and visible), and a switch between the drawn chart and a table of the same
 * numbers, for screen readers, copying and exact values.
 */
import React, { useState } from 'react'
import { ResponsiveContainer } from 'recharts'

import { formatNumber, type Language } from '../../../lib/i18n'
import { useAdminT } from '../../languages/admin/useAdminT'
import type { Period } from '../queries'
import type { DashboardData } from '../stats'

export type Column = { key: string; label: string }
type Row = { label: string } & Record<string, unknown>

const cell: React.CSSProperties = { borderBottom: '1px solid var(--theme-elevation-150)', padding: '0.25rem 0.5rem', textAlign: 'left' }
const number: React.CSSProperties = { ...cell, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }

export function ChartFigure(props: {
  id: string
  title: string
  summary: string
  rows: Row[]
  rowLabel: string
  columns: Column[]
  style: React.CSSProperties
  controls?: React.ReactNode
  children?: React.ReactElement
}) {
  const [asTable, setAsTable] = useState(false)
  const { t, lang } = useAdminT()
  const summaryId = `dashboard-${props.id}-summary`
  return (
    <figure style={{ ...props.style, margin: 0, minWidth: 0 }} data-testid={`dashboard-chart-${props.id}`} aria-describedby={summaryId}>
      <figcaption style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: '0.5rem', alignItems: 'center' }}>
        <h3 style={{ margin: 0, fontSize: '1rem' }}>{props.title}</h3>
        <span style={{ display: 'flex', gap: '0.5rem', alignItems: 'center' }}>
          {props.controls}
          {props.children && (
            <button type="button" className="btn btn--size-small btn--style-secondary" style={{ margin: 0 }} aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
              {t(asTable ? 'dashboard.showChart' : 'dashboard.showTable')}
            </button>
          )}
        </span>
      </figcaption>
      <p id={summaryId} style={{ margin: '0.5rem 0', fontSize: '0.85rem', color: 'var(--theme-elevation-600)' }} data-testid={`dashboard-summary-${props.id}`}>
        {props.summary}
      </p>
      {props.children && !asTable ? (
        <div role="img" aria-label={props.summary} style={{ width: '100%', height: 260 }}>
          <ResponsiveContainer width="100%" height="100%">
            {props.children}
          </ResponsiveContainer>
        </div>
      ) : (
        props.rows.length > 0 && (
          <div style={{ maxHeight: 260, overflow: 'auto' }}>
            <table style={{ borderCollapse: 'collapse', width: '100%', fontSize: '0.85rem' }}>
              <caption style={{ position: 'absolute', left: -10000 }}>{props.title}</caption>
              <thead>
                <tr>
                  <th scope="col" style={cell}>{props.rowLabel}</th>
                  {props.columns.map((c) => (
                    <th key={c.key} scope="col" style={number}>{c.label}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {props.rows.map((row) => (
                  <tr key={row.label}>
                    <th scope="row" style={{ ...cell, fontWeight: 'normal' }}>{row.label}</th>
                    {props.columns.map((c) => (
                      <td key={c.key} style={number}>{formatNumber(lang, Number(row[c.key] ?? 0))}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      )}
    </figure>
  )
}

const LABEL_FORMATS: Record<Period, Intl.DateTimeFormatOptions> = {
  day: { month: 'short', day: 'numeric' },
  month: { month: 'short', year: 'numeric' },
  year: { year: 'numeric' },
}

/** A bucket's local date (YYYY-MM-DD, already in APP_TIMEZONE) as a label; read as UTC so the browser's zone cannot shift it. */
export function bucketLabel(lang: Language, bucket: string, period: Period): string {
  return new Intl.DateTimeFormat(lang, { ...LABEL_FORMATS[period], timeZone: 'UTC' }).format(new Date(`${bucket}T00:00:00Z`))
}

export function sumOf(rows: Record<string, unknown>[], key: string): number {
  return rows.reduce((sum, row) => sum + Number(row[key] ?? 0), 0)
}

export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`
}
