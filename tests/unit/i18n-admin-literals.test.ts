/**
 * Every word the custom admin components show comes from the catalogs
 * (src/lib/i18n, through useAdminT / adminTranslator): this parses the files
 * of src/plugins/<feature>/admin/ with TypeScript and fails on
 *  - JSX text with letters (`<h1>Queues</h1>`),
 *  - a visible attribute given a literal (aria-label, title, placeholder, alt,
 *    label, description; a chart series' capitalised `name`; any other
 *    attribute whose literal reads as words, as below),
 *  - a string or template literal elsewhere that reads as words: two words
 *    with a space between them (`'Site statistics'`, `` `${n} dead-lettered job(s)` ``),
 *    a single capitalised word (`'Day'`), or any Chinese,
 * except where the literal is not shown: imports, the catalogs' keys (the
 * first argument of `t`), class names, styles, data-* and other
 * non-visible attributes, log lines, SQL, code in <code> (`queue.monitor`)
 * and URLs.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const PLUGINS = join(__dirname, '../../src/plugins')
/** Marks that are the same in every language (the toolbar's H2, B, I). */
const ALLOWED = new Set(['H2', 'H3', 'B', 'I', 'Escape'])
/**
 * Files whose literals are not interface words: the editor's commands insert
 * Markdown into the article itself (a new table's "Column" / "Cell"), which is
 * the writer's text, in the article's language.
 */
const NOT_INTERFACE = new Set(['content/admin/MarkdownEditor/commands.ts'])
const VISIBLE_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label', 'description'])
const HIDDEN_ATTRIBUTES = new Set(['className', 'style', 'id', 'htmlFor', 'key', 'type', 'name', 'value', 'href', 'to', 'method', 'action', 'role', 'rel', 'accept', 'dataKey', 'layout', 'el', 'size', 'height', 'minHeight'])
/** Calls whose arguments are not shown: catalog look-ups, and the module system. */
const HIDDEN_CALLS = new Set(['t', 'adminTranslator', 'require', 'import', 'query', 'querySql', 'info', 'warn', 'debug'])

const LETTER = /[A-Za-z\u3400-\u9fff]/
const CHINESE = /[\u3400-\u9fff]/
const TWO_WORDS = /[A-Za-z]{2} +[A-Za-z]{2}/
const CAPITALISED_WORD = /^[A-Z][a-z]+$/
const SQL = /^\s*(select|insert|update|delete|with)\s|\bin \('/i
/** A CSS value (`1px solid var(--theme-elevation-150)`). */
const CSS = /var\(--/
/** An identifier or setting shown as code (`queue.monitor`, `QUEUE_CONNECTION=sync`): one token with a dot, underscore or `=`. */
const CODE = /^[\w.=-]*[._=][\w.=-]*$/
const URL_LIKE = /^https?:\/\//

function adminFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return adminFiles(path)
    return /\/admin\//.test(path) && /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** The nearest JSX attribute or call a node sits in, to know whether its text is shown. */
function hiddenContext(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isImportDeclaration(at) || ts.isExportDeclaration(at) || ts.isExternalModuleReference(at)) return true
    if (ts.isJsxAttribute(at)) {
      const name = at.name.getText()
      return HIDDEN_ATTRIBUTES.has(name) || name.startsWith('data-') || name.startsWith('aria-') && !VISIBLE_ATTRIBUTES.has(name)
    }
    if (ts.isPropertyAssignment(at) && ['style', 'className', 'contentStyle', 'wrapperStyle', 'headers', 'margin', 'tick'].includes(at.name.getText())) return true
    if (ts.isCallExpression(at) || ts.isNewExpression(at)) {
      const callee = at.expression.getText().split('.').pop()!
      if (HIDDEN_CALLS.has(callee)) return true
    }
    if (ts.isExpressionStatement(at) && ts.isStringLiteral(at.expression) && at.expression.text === 'use client') return true
    if (ts.isBlock(at) || ts.isSourceFile(at)) return false
  }
  return false
}

/** Whether the static text of a literal reads as interface words. */
function reads(text: string): boolean {
  if (SQL.test(text) || CSS.test(text)) return false
  return CHINESE.test(text) || TWO_WORDS.test(text) || (CAPITALISED_WORD.test(text) && !ALLOWED.has(text))
}

/** The literal user-visible strings of one admin file's source. */
export function adminLiterals(source: string, fileName = 'component.tsx'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) {
      const text = node.text.trim()
      if (text && LETTER.test(text) && !ALLOWED.has(text) && !CODE.test(text)) found.push(text)
    } else if (ts.isJsxAttribute(node) && node.initializer && ts.isStringLiteral(node.initializer)) {
      const name = node.name.getText()
      const text = node.initializer.text
      const hidden = HIDDEN_ATTRIBUTES.has(name) || name.startsWith('data-')
      const shown = VISIBLE_ATTRIBUTES.has(name) ? LETTER.test(text) && !URL_LIKE.test(text) : name === 'name' ? CAPITALISED_WORD.test(text) : !hidden && reads(text)
      if (shown) found.push(`${name}="${text}"`)
      return
    } else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && !ts.isJsxAttribute(node.parent)) {
      if (reads(node.text) && !hiddenContext(node)) found.push(node.text)
    } else if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ')
      if (reads(parts) && !hiddenContext(node)) found.push(node.getText())
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

describe('the custom admin components’ words come from the catalogs', () => {
  const files = adminFiles(PLUGINS).filter((path) => !NOT_INTERFACE.has(relative(PLUGINS, path)))

  it('finds the admin components, and the scan finds literal words where there are some', () => {
    expect(files.length).toBeGreaterThan(20)
    expect(adminLiterals('export const A = () => <p title="Hi there">Queues <b>{t("queues.title")}</b></p>')).toEqual(['title="Hi there"', 'Queues'])
    expect(adminLiterals("const LABELS = { day: 'Day' }\nconst m = `${n} dead-lettered job(s)`\nconst z = '队列'")).toEqual(['Day', '`${n} dead-lettered job(s)`', '队列'])
    expect(adminLiterals('const C = () => <Line name="Views" dataKey="views" />')).toEqual(['name="Views"'])
    expect(adminLiterals('const C = () => <Modal confirmLabel="Switch and convert" />')).toEqual(['confirmLabel="Switch and convert"'])
    expect(adminLiterals("const e = new Error('The server answered.')")).toEqual(['The server answered.'])
    // Not shown: catalog keys, class names, styles, data-* attributes, imports, SQL.
    expect(
      adminLiterals(
        "import { x } from 'some module'\nconst C = () => <button className=\"btn btn--style-primary\" style={{ border: '1px solid red' }} data-testid=\"x y\">{t('queues.retry')}</button>\nconst q = 'select id from jobs'",
      ),
    ).toEqual([])
  })

  it('no admin component shows literal words outside the catalogs', () => {
    const offences = files.flatMap((path) => adminLiterals(readFileSync(path, 'utf8'), path).map((text) => `${relative(PLUGINS, path)}: ${text}`))
    expect(offences).toEqual([])
  })
})
