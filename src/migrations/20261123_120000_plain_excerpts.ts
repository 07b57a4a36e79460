import { type MigrateDownArgs, type MigrateUpArgs, sql } from '@payloadcms/db-postgres'
import sanitizeHtml from 'sanitize-html'

import { excerptOf } from '../lib/excerpt'

/**
 * The automatic excerpt used to glue blocks together ("Second headingSome
 * bold…"), include code, and decode `&amp;lt;` twice. Articles saved before
 * the fix keep such an excerpt until they are saved again, so this migration
 * makes them again, from the stored HTML. An excerpt is rewritten only when it
 * is exactly what the old function made from that HTML: an author's own
 * excerpt is never touched. Nothing needs undoing.
 */

/** The old automatic excerpt, frozen here so the migration can recognise what it made. */
export function legacyExcerptOf(html: string, maxLength = 200): string {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
  if (text.length <= maxLength) return text
  const cut = text.slice(0, maxLength)
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), maxLength - 20)).trimEnd() + '…'
}

const BATCH = 200

export async function up({ db }: MigrateUpArgs): Promise<void> {
  for (let after = 0; ; ) {
    const { rows } = (await db.execute(sql`
      SELECT "id", "html", "excerpt" FROM "articles"
      WHERE "id" > ${after} AND "html" IS NOT NULL AND "excerpt" IS NOT NULL
      ORDER BY "id" LIMIT ${BATCH}
    `)) as unknown as { rows: { id: number; html: string; excerpt: string }[] }
    if (!rows.length) return
    for (const { id, html, excerpt } of rows) {
      if (excerpt !== legacyExcerptOf(html)) continue
      const current = excerptOf(html)
      if (current !== excerpt) await db.execute(sql`UPDATE "articles" SET "excerpt" = ${current} WHERE "id" = ${id}`)
    }
    after = rows[rows.length - 1]!.id
  }
}

export async function down(_args: MigrateDownArgs): Promise<void> {
  // The old excerpts were defects, not data: there is nothing to restore.
}
