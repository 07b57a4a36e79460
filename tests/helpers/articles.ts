import type { Payload } from 'payload'

import type { User } from '../../src/payload-types'

/** An article written by `author` through the Local API with access enforced: published Markdown unless `extra` says otherwise. */
export function writeArticle(payload: Payload, author: User, title: string, extra: Record<string, unknown> = {}) {
  return payload.create({
    collection: 'articles',
    data: { title, format: 'markdown', markdown: 'Body', status: 'published', ...extra } as never,
    overrideAccess: false,
    user: author,
  })
}
