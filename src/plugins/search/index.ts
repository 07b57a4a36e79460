/**
 * Full-text search of articles, as one feature. It owns:
 * - the engine (searchArticles.ts: query parsing, ranking, the `article_search`
 *   table's rows; the table itself is a migration),
 * - the Articles decorations: `indexForSearch` (keeps each article's search row
 *   current inside the saving transaction), `searchAdminList` and the virtual
 *   `fullText` field (the admin's list search goes through the same index),
 * - `GET /api/search?q=&category=&tag=&page=&limit=`, the reader site's search
 *   as JSON (a mistake in the parameters is a 400 naming the parameter),
 * - the `npm run blog -- reindex-search` command.
 * Remove this plugin and nothing indexes, the endpoint is gone and the admin's
 * list search falls back to Payload's own (on the title); the reader site's
 * search page reads searchArticles directly, so it needs this folder.
 */
import type { CollectionConfig, Config, Field, Plugin } from 'payload'

import { addCommands } from '../../../jobs/commands'
import { errorResponse } from '../../lib/errorResponse'
import { decorateCollection, insertFieldsAfter } from '../decorateCollection'
import { bothLanguages } from '../../lib/i18n/labels'
import { translatorFor } from '../../lib/i18n/request'
import { indexForSearch } from './indexForSearch'
import { reindexSearchCommand } from './reindexSearchCommand'
import { FULL_TEXT_FIELD, searchAdminList } from './searchAdminList'
import { searchArticles, SearchQueryError } from './searchArticles'
import { stripHighlightMarkers } from './stripHighlightMarkers'

const fullTextField: Field = {
  // Not stored: a handle for querying the full-text index (title, excerpt and body) by `fullText`.
  name: FULL_TEXT_FIELD,
  label: bothLanguages('admin.field.search.fullText.label'),
  type: 'text',
  virtual: true,
  admin: { hidden: true, disableListColumn: true, disableListFilter: true },
}

function withSearch(articles: CollectionConfig): CollectionConfig {
  const hooks = articles.hooks ?? {}
  return {
    ...articles,
    // The search box goes through the full-text index (searchAdminList.ts); slug keeps exact slug lookups.
    admin: { ...articles.admin, listSearchableFields: [FULL_TEXT_FIELD, 'slug'] },
    hooks: {
      ...hooks,
      beforeOperation: [...(hooks.beforeOperation ?? []), searchAdminList],
      // The highlighter's marker characters are never stored (stripHighlightMarkers.ts).
      beforeValidate: [stripHighlightMarkers, ...(hooks.beforeValidate ?? [])],
      // First, where it sat when the Articles collection wired it: the search row is written before any
      // other plugin's after-change work (the translation hook, cache purges) runs.
      afterChange: [indexForSearch, ...(hooks.afterChange ?? [])],
    },
    // Right after the title, where the admin and payload-types.ts have always had it.
    fields: insertFieldsAfter(articles.fields, 'title', [fullTextField]),
  }
}

export const searchPlugin = (): Plugin => (config: Config): Config =>
  addCommands(
    {
      ...decorateCollection(config, 'articles', 'searchPlugin', withSearch),
      endpoints: [
        ...(config.endpoints ?? []),
        {
          path: '/search',
          method: 'get',
          handler: async (req) => {
            const query = req.query as Record<string, unknown>
            try {
              const { notice, ...result } = await searchArticles(req.payload, query)
              // The API's `message` says, in the request's language, why nothing was looked for.
              const message = notice && translatorFor(req)(notice)
              return Response.json(message ? { ...result, message } : result, { headers: { 'cache-control': 'no-store' } })
            } catch (error) {
              if (error instanceof SearchQueryError) {
                return errorResponse(400, { fields: { [error.field]: error.messageIn(translatorFor(req)) } })
              }
              throw error
            }
          },
        },
      ],
    },
    [reindexSearchCommand],
  )
