/** Every background job: its name, handler and retry policy. Handlers are idempotent. */
import type { Payload } from 'payload'

import { notifyArticleAuthor, type NotifyArticleAuthorData } from './notifyArticleAuthor'

export type JobData = {
  'notify-article-author': NotifyArticleAuthorData
}
export type JobName = keyof JobData

export type JobDefinition<N extends JobName> = {
  handler: (payload: Payload, data: JobData[N]) => Promise<void>
  /** Tries in all: the first run plus retries with exponential backoff. */
  tries: number
}

export const JOBS: { [N in JobName]: JobDefinition<N> } = {
  'notify-article-author': { handler: notifyArticleAuthor, tries: 5 },
}
