/**
 * Every regular expression applied to user input belongs in USER_INPUT_PATTERNS
 * below; the ReDoS checker `recheck` must find each one safe (linear), so no
 * value a visitor sends costs more than linear time. Prefer exporting the
 * pattern from its module and importing it here; a pattern copied here says
 * where it lives, and must be kept identical.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

import { checkSync } from 'recheck'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

import { AVATAR_NAME_PATTERNS } from '../../src/lib/avatarImage'
import { EMAIL_PATTERN } from '../../src/lib/emailAddress'
import { PASSWORD_SEPARATORS } from '../../src/lib/password'
import { UNSAFE_REDIRECT_CHARACTERS } from '../../src/lib/safeRedirect'

const USER_INPUT_PATTERNS: [where: string, pattern: RegExp][] = [
  // Accounts
  ['src/lib/emailAddress.ts EMAIL_PATTERN (every e-mail: forms and the Users collection)', EMAIL_PATTERN],
  ['src/lib/safeRedirect.ts UNSAFE_REDIRECT_CHARACTERS (login ?next=)', UNSAFE_REDIRECT_CHARACTERS],
  ['src/lib/password.ts PASSWORD_SEPARATORS', PASSWORD_SEPARATORS],
  ...Object.entries(AVATAR_NAME_PATTERNS).map(([name, pattern]): [string, RegExp] => [`src/lib/avatarImage.ts ${name} (upload file name)`, pattern]),
  ['src/plugins/accounts/endpoints/profile.ts line endings of the introduction', /\r\n/g],
  // Articles and replies (copies: keep identical to the source)
  ['src/lib/slug.ts slugify: unsafe runs', /[^a-z0-9-]+/g],
  ['src/lib/slug.ts slugify: repeated dashes', /-{2,}/g],
  ['src/lib/slug.ts slugify: edge dash', /^-|-$/g],
  ['src/lib/slug.ts isValidSlug', /^[a-z0-9]+(?:-[a-z0-9]+)*$/],
  ['src/lib/sanitize.ts COLOR', /^#[0-9a-f]{3,8}$/i],
  ['src/lib/sanitize.ts SAFE_ID', /^[a-z0-9][a-z0-9_-]{0,99}$/],
  ['src/lib/sanitize.ts whitespace', /\s+/g],
  ['src/lib/highlight.ts language word', /\s+/],
  ['src/lib/highlight.ts language characters', /[^\w-]/g],
  ['src/lib/markdown.ts NUL', /\u0000/g],
  ['src/lib/mail.ts links in a mail', /https?:\/\/[^\s"'<>]+/g],
  ['jobs/notifyArticleAuthor.ts reply line breaks', /\n/g],
  ['frontend/src/lib/feed.ts root-relative links', /(\s(?:href|src))="\/(?!\/)/g],
  ['src/plugins/content/admin/MarkdownEditor/uploadImage.ts extension', /\.[^.]+$/],
  ['src/plugins/content/admin/MarkdownEditor/uploadImage.ts separators', /[-_]+/g],
]

describe('regular expressions applied to user input', () => {
  // recheck's own time budget is raised so a busy machine gets a verdict ("safe"), not "unknown".
  it.each(USER_INPUT_PATTERNS)(
    '%s is safe from ReDoS (recheck)',
    (_where, pattern) => {
      const diagnostics = checkSync(pattern.source, pattern.flags, { timeout: 60_000 })
      expect(diagnostics.status, JSON.stringify(diagnostics)).toBe('safe')
    },
    90_000,
  )

  it('recheck does flag the e-mail pattern the account forms used before (the check can fail)', () => {
    expect(checkSync('^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', '').status).toBe('vulnerable')
  })
})

/**
 * Every regular-expression literal in the application's source (not only the
 * list above, which also holds patterns built at run time): a pattern added
 * anywhere later is checked without anyone remembering to list it.
 */
function regexLiteralsOfTheSource(): [where: string, source: string, flags: string][] {
  const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => /^(src|collections|hooks|jobs|frontend\/src)\//.test(f) && !f.startsWith('src/migrations/') && !f.endsWith('payload-types.ts'))
  const found: [string, string, string][] = []
  for (const file of files) {
    const sourceFile = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(sourceFile)
        const end = text.lastIndexOf('/')
        const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile))
        found.push([`${file}:${line + 1} ${text}`, text.slice(1, end), text.slice(end + 1)])
      }
      ts.forEachChild(node, visit)
    }
    visit(sourceFile)
  }
  return found
}

describe('every regular-expression literal in the source', () => {
  const literals = regexLiteralsOfTheSource()

  it('finds the literals (the scan itself works)', () => {
    expect(literals.length).toBeGreaterThan(50)
    expect(literals.some(([where]) => where.startsWith('src/lib/emailAddress.ts'))).toBe(true)
  })

  it('are all safe from ReDoS (recheck)', () => {
    const unsafe = literals
      .map(([where, source, flags]) => [where, checkSync(source, flags, { timeout: 60_000 }).status] as const)
      .filter(([, status]) => status !== 'safe')
    expect(unsafe).toEqual([])
  }, 300_000)
})
