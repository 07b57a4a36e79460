/**
 * Every word the reader site shows comes from the catalogs (src/lib/i18n):
 * this scans the templates of frontend/src's .astro files for literal text —
 * text nodes, and the aria-label, placeholder, title and alt attributes —
 * outside `{…}` expressions (where `t('key')` is). Words that are names in
 * every language (RSS) are allowed.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SITE = join(__dirname, '../../frontend/src')
const ALLOWED = new Set(['RSS', 'iwt__…'])
const WORDS = /[A-Za-z\u3400-\u9fff]/
/** A stretch between `>` and `<` that is an expression's code (`a > 0 && (`, `) : cond ? (`), not text. */
const CODE = /&&|\|\||\?\s*\(|\)\s*:|:\s*t\(|===/

function astroFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? astroFiles(path) : entry.name.endsWith('.astro') ? [path] : []
  })
}

/** The template of a component: after its frontmatter, without style and script elements. */
function templateOf(source: string): string {
  const fence = source.startsWith('---') ? source.indexOf('\n---', 3) : -1
  const body = fence < 0 ? source : source.slice(fence + 4)
  return body.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<script[\s\S]*?<\/script>/g, '')
}

/** Text with its balanced `{…}` groups removed, and whatever an unbalanced brace opens or closes. */
function withoutExpressions(text: string): string {
  let out = ''
  let depth = 0
  for (const ch of text) {
    if (ch === '{') depth++
    else if (ch === '}') depth = Math.max(0, depth - 1)
    else if (depth === 0) out += ch
  }
  // An unmatched `}`: everything before it was inside an expression that began earlier.
  const close = text.lastIndexOf('}')
  if (close >= 0 && depth === 0 && text.slice(0, close + 1).split('{').length <= text.slice(0, close + 1).split('}').length - 1) return withoutExpressions(text.slice(close + 1))
  return out
}

/** The literal user-visible strings of a template. */
export function literalTexts(template: string): string[] {
  const found: string[] = []
  // Text nodes: between a tag's end and the next tag; not code after an arrow (`=> <li>`) or a comparison.
  for (const m of template.matchAll(/(.)>([^<]*)</g)) {
    if (m[1] === '=' || m[2]!.startsWith('=') || CODE.test(m[2]!)) continue
    const text = withoutExpressions(m[2]!).trim()
    if (text && WORDS.test(text) && !ALLOWED.has(text)) found.push(text)
  }
  for (const m of template.matchAll(/\s(aria-label|placeholder|title|alt)="([^"]*)"/g)) {
    if (WORDS.test(m[2]!)) found.push(`${m[1]}="${m[2]}"`)
  }
  return found
}

describe('the reader site’s words come from the catalogs', () => {
  const files = astroFiles(SITE)

  it('finds the templates, and the scan finds literal text where there is some', () => {
    expect(files.length).toBeGreaterThan(30)
    expect(literalTexts('<p>Hello</p><img alt="A cat" /><b>{t("x")}</b>')).toEqual(['Hello', 'alt="A cat"'])
    expect(literalTexts('<ul>{items.map((i) => <li>{i.name}</li>)}</ul><span>{n > 1 ? t("a") : t("b")}</span>')).toEqual([])
    expect(literalTexts('<p>{cond && <span>Deleted user</span>}</p>')).toEqual(['Deleted user'])
    expect(literalTexts('<p>中文</p>')).toEqual(['中文'])
  })

  it('no .astro template shows literal words outside t(…)', () => {
    const offences = files.flatMap((path) => literalTexts(templateOf(readFileSync(path, 'utf8'))).map((text) => `${relative(SITE, path)}: ${text}`))
    expect(offences).toEqual([])
  })
})
