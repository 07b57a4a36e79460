import { LRUCache } from 'lru-cache'

import { proseOf } from './excerpt'

/** Typical silent-reading speeds: words of alphabetic text, characters of Chinese/Japanese text. */
const WORDS_PER_MINUTE = 230
const HAN_CHARACTERS_PER_MINUTE = 300

const HAN = /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u
const wordSegments = new Intl.Segmenter('en', { granularity: 'word' })

/**
 * Minutes a reader takes for an article's rendered body (at least 1): its
 * prose, code blocks left out, alphabetic words and Han characters each at
 * their own speed.
 */
export function readingMinutes(html: string | null | undefined): number {
  const text = proseOf(html)
  let words = 0
  let han = 0
  for (const { segment, isWordLike } of wordSegments.segment(text)) {
    if (!isWordLike) continue
    if (HAN.test(segment)) han += [...segment].filter((c) => HAN.test(c)).length
    else words++
  }
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE + han / HAN_CHARACTERS_PER_MINUTE))
}

/** Reading times by article version: computing one parses the whole body, and an uncached article page shows it on every render. */
const minutesByVersion = new LRUCache<string, number>({ max: 10_000 })

/** readingMinutes of an article's body, computed once per version (id and last update). */
export function articleReadingMinutes(article: { id: number; updatedAt: string; html?: string | null }): number {
  const version = `${article.id}@${article.updatedAt}`
  let minutes = minutesByVersion.get(version)
  if (minutes === undefined) minutesByVersion.set(version, (minutes = readingMinutes(article.html)))
  return minutes
}
