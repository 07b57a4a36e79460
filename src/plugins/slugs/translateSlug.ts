/**
 * The `translate-slug` job: replaces an article's automatic (transliterated)
 * slug with the slug of its English title. Idempotent, and careful not to win
 * a race it should lose: it writes only while the slug is still automatic and
 * the title is the one it translated (checked again inside the write, see
 * slugField.ts). A failure a retry can fix throws (the queue retries with
 * backoff); one it cannot (credentials, signature) gives up at once. Either
 * way, giving up leaves the transliterated slug: that is the fallback.
 */
import type { Payload } from 'payload'

import { slugify } from '../../lib/slug'
import { translatedSlugContext } from './slugDecision'
import { TranslationError, translateToEnglish, type TranslateOptions } from './translateToEnglish'

export type TranslateSlugData = { articleId: number; title: string }

export function translateSlug(options: TranslateOptions) {
  return async (payload: Payload, { articleId, title }: TranslateSlugData): Promise<void> => {
    const article = await payload.findByID({
      collection: 'articles',
      id: articleId,
      depth: 0,
      disableErrors: true,
      overrideAccess: true,
      select: { title: true, slug: true, slugOrigin: true },
    })
    if (!article || article.slugOrigin !== 'automatic' || article.title !== title) return
    let english: string
    try {
      english = await translateToEnglish(title, options)
    } catch (error) {
      if (error instanceof TranslationError && !error.retryable) {
        payload.logger.error(`translate-slug: article ${articleId} keeps its transliterated slug: ${error.message}`)
        return
      }
      throw error
    }
    const slug = slugify(english)
    // Punctuation or an empty string "translated": an answer that makes no slug is garbage, tried again.
    if (slug === 'untitled') throw new TranslationError(`the translation "${english.slice(0, 80)}" makes no slug`, true)
    await payload.update({
      collection: 'articles',
      id: articleId,
      data: { slug },
      depth: 0,
      overrideAccess: true,
      context: translatedSlugContext(title),
    })
  }
}
