import type { CollectionSlug, FieldHook, TextField } from 'payload'

import { lockTransaction } from '../../hooks/lockTransaction'
import { isValidSlug, slugify } from '../lib/slug'

/**
 * A unique, indexed slug that follows `sourceField` until someone sets it by hand.
 * When the derived slug is taken, a numeric suffix keeps it unique. Two saves
 * deriving the same slug at once take turns (a transaction-scoped advisory
 * lock on the slug), so the second sees the first's row and picks the next
 * suffix instead of failing the unique index on a field its author never filled.
 */
export function slugField(sourceField = 'title', overrides: Partial<TextField> = {}): TextField {
  const deriveSlug: FieldHook = async ({ value, data, originalDoc, req, collection }) => {
    const explicit = typeof value === 'string' && value.trim() !== ''
    if (explicit && value !== originalDoc?.slug) return slugify(value)
    if (explicit) return value
    const source = data?.[sourceField] ?? originalDoc?.[sourceField]
    if (typeof source !== 'string' || !source.trim()) return value
    const base = slugify(source)
    if (!collection) return base
    await lockTransaction(req, `slug:${collection.slug}:${base}`)
    return uniqueSlug(base, collection.slug as CollectionSlug, originalDoc?.id, req)
  }

  return {
    name: 'slug',
    type: 'text',
    index: true,
    unique: true,
    maxLength: 96,
    admin: { position: 'sidebar', description: `Left empty, it is made from the ${sourceField}.` },
    validate: (value: unknown) =>
      value === undefined || value === null || value === '' || isValidSlug(value)
        ? true
        : 'Use lowercase letters, digits and single hyphens only.',
    hooks: { beforeValidate: [deriveSlug] },
    ...overrides,
  } as TextField
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
