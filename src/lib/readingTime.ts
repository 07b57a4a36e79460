import { createHash } from 'node:crypto'

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

/**
 * Reading times by article, kept with a digest of the HTML they were computed
 * from: computing one parses the whole body, and an uncached article page
 * shows it on every render, while hashing it takes microseconds. Keyed on the
 * content, not the update time, so a body changed by any path is measured
 * again; a digest, not the HTML, so the memo stays a few bytes per article.
 */
const minutesByArticle = new LRUCache<number, { digest: string; minutes: number }>({ max: 10_000 })

/** readingMinutes of an article's body, computed once per content. */
export function articleReadingMinutes(article: { id: number; html?: string | null }): number {
  const html = article.html ?? ''
  const digest = createHash('sha1').update(html).digest('base64')
  const kept = minutesByArticle.get(article.id)
  if (kept?.digest === digest) return kept.minutes
  const minutes = readingMinutes(html)
  minutesByArticle.set(article.id, { digest, minutes })
  return minutes
}
