/**
 * Code highlighting with shiki, done once at save time (never per page view).
 * Both themes go into one result as CSS variables (`--shiki-light`,
 * `--shiki-dark`), so the reader's colour scheme picks one with plain CSS and
 * the sanitizer only has to allow those few variables.
 */
import { bundledLanguages, createHighlighter, type BundledLanguage, type Highlighter } from 'shiki'

import { escapeHtml } from './escapeHtml'

export const THEMES = { light: 'github-light', dark: 'github-dark' } as const

let highlighter: Promise<Highlighter> | undefined

function getHighlighter(): Promise<Highlighter> {
  highlighter ??= createHighlighter({ themes: Object.values(THEMES), langs: [] })
  return highlighter
}

/** The shiki language id for a fence's info string, or undefined when shiki does not know it. */
export function knownLanguage(lang: string | null | undefined): BundledLanguage | undefined {
  const id = (lang ?? '').trim().toLowerCase().split(/\s+/)[0]
  return id && id in bundledLanguages ? (id as BundledLanguage) : undefined
}

/** Loads the grammars a document needs, so highlightSync can run inside synchronous renderers. */
export async function prepareHighlighter(langs: Iterable<string | null | undefined>): Promise<Highlighter> {
  const h = await getHighlighter()
  const missing = [...new Set([...langs].map(knownLanguage))].filter(
    (l): l is BundledLanguage => !!l && !h.getLoadedLanguages().includes(l),
  )
  if (missing.length) await h.loadLanguage(...missing)
  return h
}

/**
 * `<pre class="shiki language-x"><code class="language-x">…` with both themes.
 * Unknown languages are escaped plain text in the same frame.
 */
export function highlightSync(h: Highlighter, code: string, lang: string | null | undefined): string {
  const language = knownLanguage(lang)
  const label = language ?? (lang ?? '').trim().split(/\s+/)[0]?.replace(/[^\w-]/g, '')
  const languageClass = label ? `language-${label}` : ''
  if (!language || !h.getLoadedLanguages().includes(language)) {
    return `<pre class="shiki ${languageClass}"><code class="${languageClass}">${escapeHtml(code)}</code></pre>`
  }
  return h.codeToHtml(code, {
    lang: language,
    themes: THEMES,
    defaultColor: false,
    transformers: [
      {
        pre(node) {
          this.addClassToHast(node, languageClass)
          delete node.properties.tabindex
        },
        code(node) {
          this.addClassToHast(node, languageClass)
        },
      },
    ],
  })
}

/** One code block, highlighted. */
export async function highlight(code: string, lang: string | null | undefined): Promise<string> {
  return highlightSync(await prepareHighlighter([lang]), code, lang)
}
