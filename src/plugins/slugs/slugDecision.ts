/**
 * What the slugs plugin's hooks tell each other within one request, the one
 * definition of the `req.context` entries they share:
 * - the slug field's hook records what it decided for each document
 *   (`recordSlugDecision`); `stampSlugOrigin` and the translation hook read it
 *   (`slugDecision`), since field hooks cannot set the server-written
 *   `slugOrigin` themselves and the after-change hook must know the slug was
 *   made from the title in this very save;
 * - the translate-slug job marks its own write with the title it translated
 *   (`translatedSlugContext`), which the field's hook reads back
 *   (`translatedSlugWrite`) to apply it only if nothing changed meanwhile.
 */
import type { PayloadRequest, RequestContext } from 'payload'

/**
 * Where a tracked slug came from: made from the title (`automatic`), replaced
 * by its English translation (`translated`), or typed by an editor (`editor`,
 * never overwritten).
 */
export type SlugOrigin = 'automatic' | 'translated' | 'editor'

/** What the slug hook decided for one document of a request ('kept' when it left the slug alone). */
export type SlugDecision = { origin: SlugOrigin | 'kept' }

const DECISIONS = 'inkwellSlugDecisions'
const TRANSLATED_SLUG = 'inkwellTranslatedSlug'

type TranslatedSlugWrite = { title: string }

function decisions(req: PayloadRequest): Map<string, SlugDecision> {
  return ((req.context[DECISIONS] as Map<string, SlugDecision> | undefined) ??= new Map())
}
/** One request may save several documents (a create has no id yet). */
const decisionKey = (id: unknown) => (id === undefined || id === null ? 'create' : String(id))

export function recordSlugDecision(req: PayloadRequest, id: unknown, origin: SlugDecision['origin']): void {
  decisions(req).set(decisionKey(id), { origin })
}

/** The slug the hook decided on for this document in this request. */
export function slugDecision(req: PayloadRequest, id: unknown): SlugDecision | undefined {
  return decisions(req).get(decisionKey(id))
}

/** The `context` of the translate-slug job's write: the title whose translation it carries. */
export function translatedSlugContext(title: string): RequestContext {
  return { [TRANSLATED_SLUG]: { title } satisfies TranslatedSlugWrite }
}

/** Set when this save is the translate-slug job's write. */
export function translatedSlugWrite(req: PayloadRequest): TranslatedSlugWrite | undefined {
  return req.context[TRANSLATED_SLUG] as TranslatedSlugWrite | undefined
}
