/**
 * What an import did: per kind of thing, how many were imported, found
 * already imported (a re-import), skipped and failed, with the reason for
 * every skip and failure, and notes (what was converted differently, what
 * was kept as HTML). Printed by the commands and kept in `import-reports`.
 */
import { CommandFailure } from '../../../jobs/commands'

/** The file cannot be imported at all (not an export, truncated, too big): a clear message, no stack. */
export class ImportFileError extends CommandFailure {}

export type Kind = 'authors' | 'categories' | 'tags' | 'articles' | 'pages' | 'replies' | 'media' | 'redirects' | 'follows' | 'settings'
export const KINDS: Kind[] = ['authors', 'categories', 'tags', 'articles', 'pages', 'replies', 'media', 'redirects', 'follows', 'settings']

export type Counts = { imported: number; existing: number; skipped: number; failed: number }
export type Line = { kind: Kind; id: string; reason: string }

/** Lines kept per list: a file with 100 000 spam comments must not make a 100 000-line report. */
const MAX_LINES = 500

export class ImportReport {
  counts = Object.fromEntries(KINDS.map((k) => [k, { imported: 0, existing: 0, skipped: 0, failed: 0 }])) as Record<Kind, Counts>
  skips: Line[] = []
  failures: Line[] = []
  notes: string[] = []
  private omitted = { skips: 0, failures: 0 }

  constructor(
    readonly source: string,
    readonly file: string,
    readonly dryRun: boolean,
  ) {}

  imported(kind: Kind, n = 1) {
    this.counts[kind].imported += n
  }
  existing(kind: Kind, n = 1) {
    this.counts[kind].existing += n
  }
  skip(kind: Kind, id: string, reason: string) {
    this.counts[kind].skipped++
    if (this.skips.length < MAX_LINES) this.skips.push({ kind, id, reason })
    else this.omitted.skips++
  }
  fail(kind: Kind, id: string, reason: string) {
    this.counts[kind].failed++
    if (this.failures.length < MAX_LINES) this.failures.push({ kind, id, reason })
    else this.omitted.failures++
  }
  note(line: string) {
    if (!this.notes.includes(line) && this.notes.length < MAX_LINES) this.notes.push(line)
  }

  /** The report as lines of text, for a terminal. */
  lines(): string[] {
    const out = [`${this.dryRun ? 'Dry run (nothing written)' : 'Import'} of ${this.file} (${this.source})`]
    out.push('  kind         imported  existing  skipped  failed')
    for (const kind of KINDS) {
      const c = this.counts[kind]
      out.push(`  ${kind.padEnd(12)}${String(c.imported).padStart(9)}${String(c.existing).padStart(10)}${String(c.skipped).padStart(9)}${String(c.failed).padStart(8)}`)
    }
    for (const s of this.skips) out.push(`  skipped ${s.kind} ${s.id}: ${s.reason}`)
    if (this.omitted.skips) out.push(`  … and ${this.omitted.skips} more skipped`)
    for (const f of this.failures) out.push(`  failed ${f.kind} ${f.id}: ${f.reason}`)
    if (this.omitted.failures) out.push(`  … and ${this.omitted.failures} more failed`)
    for (const n of this.notes) out.push(`  note: ${n}`)
    return out
  }

  summary(): string {
    const total = (key: keyof Counts) => KINDS.reduce((sum, k) => sum + this.counts[k][key], 0)
    return `${this.dryRun ? 'dry run: would import' : 'imported'} ${total('imported')} items, ${total('existing')} already there, ${total('skipped')} skipped, ${total('failed')} failed`
  }

  toJSON() {
    return { source: this.source, file: this.file, dryRun: this.dryRun, counts: this.counts, skips: this.skips, failures: this.failures, notes: this.notes, omitted: this.omitted }
  }
}
