import type { Config, Plugin } from 'payload'

import { addCommands } from '../../jobs/commands'
import { reindexSearchCommand } from '../../jobs/reindexSearch'
import { searchArticles, SearchQueryError } from '../lib/search'

/**
 * `GET /api/search?q=&category=&tag=&page=&limit=`: the reader site's search
 * as JSON, a thin shell over searchArticles. A mistake in the parameters is a
 * 400 naming the parameter. Also offers `npm run blog -- reindex-search`.
 */
export const searchPlugin = (): Plugin => (config: Config): Config =>
  addCommands(
    {
      ...config,
      endpoints: [
        ...(config.endpoints ?? []),
        {
          path: '/search',
          method: 'get',
          handler: async (req) => {
            const query = req.query as Record<string, unknown>
            try {
              const result = await searchArticles(req.payload, query)
              return Response.json(result, { headers: { 'cache-control': 'no-store' } })
            } catch (error) {
              if (error instanceof SearchQueryError) {
                return Response.json({ errors: [{ message: error.message, field: error.field }] }, { status: 400 })
              }
              throw error
            }
          },
        },
      ],
    },
    [reindexSearchCommand],
  )
