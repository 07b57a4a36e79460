/**
 * A catalog message with elements in it: `rich(t('key'), { name: <code>…</code> })`
 * puts each element where the message has `{name}` (t leaves placeholders it
 * was not given), so a sentence keeps its markup while its word order stays
 * the translator's.
 */
import React from 'react'

const PLACEHOLDER = /\{(\w+)\}/g

export function rich(text: string, parts: Record<string, React.ReactNode>): React.ReactNode[] {
  const out: React.ReactNode[] = []
  let last = 0
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (!(m[1]! in parts)) continue
    out.push(text.slice(last, m.index))
    out.push(<React.Fragment key={`${m[1]}-${m.index}`}>{parts[m[1]!]}</React.Fragment>)
    last = m.index! + m[0].length
  }
  out.push(text.slice(last))
  return out
}
