/**
 * The toolbar's and shortcuts' edits, as CodeMirror commands: each changes
 * the selection (or inserts at the cursor) in one undoable transaction.
 */
import { EditorSelection } from '@codemirror/state'
import type { EditorView } from '@codemirror/view'

/** Wraps every selection in `before`/`after` (or inserts them around a placeholder word). */
export function wrap(before: string, after: string, placeholder: string) {
  return (view: EditorView): boolean => {
    view.dispatch(
      view.state.changeByRange((range) => {
        const text = view.state.sliceDoc(range.from, range.to) || placeholder
        const insert = before + text + after
        return {
          changes: { from: range.from, to: range.to, insert },
          range: EditorSelection.range(range.from + before.length, range.from + before.length + text.length),
        }
      }),
    )
    view.focus()
    return true
  }
}

/** Toggles a line prefix (`## `, `> `, `- `, `1. `) on every selected line. */
export function prefixLines(prefix: string | ((n: number) => string)) {
  return (view: EditorView): boolean => {
    const { state } = view
    const changes: { from: number; to?: number; insert: string }[] = []
    for (const range of state.selection.ranges) {
      const first = state.doc.lineAt(range.from).number
      const last = state.doc.lineAt(range.to).number
      for (let n = first; n <= last; n++) {
        const line = state.doc.line(n)
        const p = typeof prefix === 'string' ? prefix : prefix(n - first + 1)
        if (line.text.startsWith(p)) changes.push({ from: line.from, to: line.from + p.length, insert: '' })
        else changes.push({ from: line.from, insert: p })
      }
    }
    view.dispatch({ changes })
    view.focus()
    return true
  }
}

/** Inserts a block on lines of its own at the cursor, selecting `select` inside it when given. */
export function insertBlock(block: string, select?: string) {
  return (view: EditorView): boolean => {
    const { state } = view
    const at = state.selection.main.to
    const line = state.doc.lineAt(at)
    const before = line.text.trim() ? '\n\n' : ''
    const insert = `${before}${block}\n`
    const start = at + before.length + (select ? block.indexOf(select) : block.length)
    view.dispatch({
      changes: { from: at, insert },
      selection: EditorSelection.range(start, select ? start + select.length : start),
    })
    view.focus()
    return true
  }
}

export const bold = wrap('**', '**', 'bold text')
export const italic = wrap('*', '*', 'italic text')
export const inlineCode = wrap('`', '`', 'code')
export const link = (view: EditorView) => {
  const { from, to } = view.state.selection.main
  const text = view.state.sliceDoc(from, to) || 'link text'
  const insert = `[${text}](https://)`
  const urlStart = from + text.length + 3
  view.dispatch({ changes: { from, to, insert }, selection: EditorSelection.range(urlStart, urlStart + 8) })
  view.focus()
  return true
}
export const heading = (level: number) => prefixLines('#'.repeat(level) + ' ')
export const quote = prefixLines('> ')
export const bulletList = prefixLines('- ')
export const numberedList = prefixLines((n) => `${n}. `)
export const codeBlock = insertBlock('```ts\ncode\n```', 'code')
export const table = insertBlock('| Column | Column |\n| --- | --- |\n| Cell | Cell |', 'Column')

/** Inserts text at `at` (default: replacing the selection). */
export function insertAt(view: EditorView, text: string, at?: number): void {
  const { from, to } = at === undefined ? view.state.selection.main : { from: at, to: at }
  view.dispatch({ changes: { from, to, insert: text }, selection: EditorSelection.cursor(from + text.length) })
}

/** Replaces the first occurrence of `search` (e.g. an upload placeholder) with `replacement`. */
export function replaceText(view: EditorView, search: string, replacement: string): boolean {
  const index = view.state.doc.toString().indexOf(search)
  if (index < 0) return false
  view.dispatch({ changes: { from: index, to: index + search.length, insert: replacement } })
  return true
}
