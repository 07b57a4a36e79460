import type { CollectionBeforeChangeHook, CollectionSlug, Field, FieldHook, PayloadRequest, TextField } from 'payload'

import { lockTransaction } from '../../../hooks/lockTransaction'
import { serverWritten } from '../../fields/serverOwned'
import { bothLanguages, optionLabels } from '../../lib/i18n/labels'
import { validationTranslator } from '../../lib/i18n/request'
import { t, type Language } from '../../lib/i18n'
import { isValidSlug, slugify } from '../../lib/slug'
import { recordSlugDecision, slugDecision, translatedSlugWrite, type SlugDecision, type SlugOrigin } from './slugDecision'

type SlugFieldOptions = {
  /**
   * Track where the slug came from (the `slugOrigin` and `formerSlugs` fields
   * of `slugOriginFields`, stamped by `stampSlugOrigin`): an automatic slug then
   * follows the title, and may be replaced by its translation.
   */
  trackOrigin?: boolean
}

/**
 * A unique, indexed slug made from `sourceField` until someone sets it by hand.
 * When the derived slug is taken, a numeric suffix keeps it unique. Two saves
 * deriving the same slug at once take turns (a transaction-scoped advisory
 * lock on the slug), so the second sees the first's row and picks the next
 * suffix instead of failing the unique index on a field its author never filled.
 */
/** The source field's name in the admin's language ("title" / "标题"), for the slug's description; other fields keep their name. */
function sourceWord(lang: Language, sourceField: string): string {
  return sourceField === 'title' || sourceField === 'name' ? t(lang, `admin.field.slug.source.${sourceField}`) : sourceField
}

export function slugField(sourceField = 'title', overrides: Partial<TextField> = {}, { trackOrigin = false }: SlugFieldOptions = {}): TextField {
  const deriveSlug: FieldHook = async ({ value, data, originalDoc, req, collection }) => {
    const record = (origin: SlugDecision['origin']) => recordSlugDecision(req, originalDoc?.id, origin)
    const previous = originalDoc?.slug as string | undefined
    const automatic = trackOrigin && !!originalDoc && originalDoc.slugOrigin !== 'editor'
    const unique = async (base: string) => {
      if (!collection) return base
      await lockTransaction(req, `slug:${collection.slug}:${base}`)
      return uniqueSlug(base, collection.slug as CollectionSlug, originalDoc?.id, req)
    }

    const translation = translatedSlugWrite(req)
    if (trackOrigin && translation && typeof value === 'string') {
      // The job's write lands only if nobody took the slug over or changed the title meanwhile.
      if (!automatic || originalDoc?.slugOrigin !== 'automatic' || originalDoc?.title !== translation.title) {
        record('kept')
        return previous
      }
      record('translated')
      return unique(slugify(value))
    }

    const explicit = typeof value === 'string' && value.trim() !== ''
    // A form opened before the translated slug arrived still sends the slug it showed: that is not an editor's choice.
    const formerAutomatic = automatic && (originalDoc?.formerSlugs as { slug?: string }[] | undefined)?.some((r) => r.slug === value)
    if (explicit && value !== previous && !formerAutomatic) {
      record('editor')
      return slugify(value)
    }
    const source = data?.[sourceField] ?? originalDoc?.[sourceField]
    const titleChanged = automatic && typeof data?.[sourceField] === 'string' && data[sourceField] !== originalDoc?.[sourceField]
    if (explicit && !titleChanged) {
      record('kept')
      return previous ?? value
    }
    if (typeof source !== 'string' || !source.trim()) return value
    record('automatic')
    return unique(slugify(source))
  }

  return {
    name: 'slug',
    type: 'text',
    index: true,
    unique: true,
    maxLength: 96,
    admin: {
      position: 'sidebar',
      description: bothLanguages(trackOrigin ? 'admin.field.slug.tracked' : 'admin.field.slug.untracked', (lang) => ({ source: sourceWord(lang, sourceField) })),
    },
    validate: (value: unknown, { req }: { req: PayloadRequest }) =>
      value === undefined || value === null || value === '' || isValidSlug(value) ? true : validationTranslator(req)('validation.slug'),
    hooks: { beforeValidate: [deriveSlug] },
    ...overrides,
  } as TextField
}

/** The fields a tracked slug needs beside it; server-written, shown read-only in the sidebar. */
export function slugOriginFields(): Field[] {
  return [
    {
      name: 'slugOrigin',
      type: 'select',
      defaultValue: 'automatic',
      options: optionLabels('admin.option.slugOrigin', ['automatic', 'translated', 'editor']),
      admin: { position: 'sidebar', readOnly: true },
      access: serverWritten,
    },
    {
      // Every slug the document had: its old URLs keep answering with a redirect to the current one.
      name: 'formerSlugs',
      type: 'array',
      admin: { position: 'sidebar', readOnly: true, initCollapsed: true },
      access: serverWritten,
      fields: [{ name: 'slug', type: 'text', required: true, index: true }],
    },
  ]
}

/** How many former slugs a document keeps (the oldest drop first). */
const FORMER_SLUGS_KEPT = 50

/**
 * Stamps what the slug hook decided (field hooks run concurrently, so the
 * server-written fields are set here, after them) and keeps the slug being
 * replaced among the former ones.
 */
export const stampSlugOrigin: CollectionBeforeChangeHook = ({ data, originalDoc, req }) => {
  const decided = slugDecision(req, originalDoc?.id)?.origin
  const origin: SlugOrigin = !decided || decided === 'kept' ? (originalDoc?.slugOrigin ?? 'automatic') : decided
  const previous = originalDoc?.slug as string | undefined
  const former = ((originalDoc?.formerSlugs ?? []) as { slug: string }[]).map((r) => r.slug)
  const slug = data.slug ?? previous
  if (previous && slug && previous !== slug && !former.includes(previous)) former.push(previous)
  const formerSlugs = former.filter((s) => s !== slug).slice(-FORMER_SLUGS_KEPT).map((s) => ({ slug: s }))
  return { ...data, slugOrigin: origin, formerSlugs }
}

async function uniqueSlug(
  base: string,
  collection: CollectionSlug,
  ownId: number | string | undefined,
  req: Parameters<FieldHook>[0]['req'],
): Promise<string> {
  const { docs } = await req.payload.find({
    collection,
    where: { slug: { like: base } },
    select: { slug: true } as never,
    limit: 200,
    pagination: false,
    overrideAccess: true,
    depth: 0,
    req,
  })
  const rows = docs as unknown as { id: number | string; slug: string }[]
  const taken = new Set(rows.filter((d) => d.id !== ownId).map((d) => d.slug))
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 90)}-${n}`
    if (!taken.has(candidate)) return candidate
  }
}
