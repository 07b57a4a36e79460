import type { CollectionBeforeOperationHook, Where } from 'payload'

import { matchingArticleIds } from './searchArticles'

/** The virtual field the admin's list search (admin.listSearchableFields) queries. */
export const FULL_TEXT_FIELD = 'fullText'

/** Replaces each `{ fullText: { like | contains | equals: q } }` in a where with the ids the search index finds. */
async function rewrite(where: Where, resolve: (q: unknown) => Promise<Where>): Promise<Where> {
  const out: Where = {}
  const matches: Where[] = []
  for (const [key, value] of Object.entries(where)) {
    if ((key === 'and' || key === 'or') && Array.isArray(value)) {
      out[key] = await Promise.all(value.map((w) => rewrite(w as Where, resolve)))
    } else if (key === FULL_TEXT_FIELD && value && typeof value === 'object') {
      const op = value as Record<string, unknown>
      matches.push(await resolve(op.like ?? op.contains ?? op.equals))
    } else out[key] = value
  }
  if (matches.length) out.and = [...((out.and as Where[] | undefined) ?? []), ...matches]
  return out
}

function mentionsFullText(where: unknown): boolean {
  return JSON.stringify(where ?? {}).includes(`"${FULL_TEXT_FIELD}"`)
}

/**
 * The admin's list search (and any REST, GraphQL or Local API query on
 * `fullText`) goes through the same full-text index as the reader site's
 * search, instead of a LIKE on the title. Payload's list view turns its search
 * box into `{ or: [{ fullText: { like: q } }] }`; this hook, run before every
 * operation's query, swaps that condition for the matching ids, so access
 * rules, other filters and the list's sort apply as usual.
 */
export const searchAdminList: CollectionBeforeOperationHook = async ({ args, req }) => {
  const where = (args as { where?: Where }).where
  if (!where || !mentionsFullText(where)) return args
  const resolve = async (q: unknown): Promise<Where> => {
    const ids = await matchingArticleIds(req.payload, q)
    return { id: { in: ids.length ? ids : [0] } }
  }
  return { ...args, where: await rewrite(where, resolve) }
}
