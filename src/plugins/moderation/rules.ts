/**
 * The owner's rules (site settings → Moderation) and the decision they make
 * for one reply. Pure: the hooks gather the facts, this says which state.
 */
import { linkHosts } from './tokenize'

export type ReplyState = 'published' | 'held' | 'spam' | 'trash'
export const REPLY_STATES: ReplyState[] = ['published', 'held', 'spam', 'trash']

export type Rules = {
  holdAll: boolean
  /** Hold a writer's first N replies (0: off). */
  holdFirstReplies: number
  /** Hold a reply with at least N links (0: off). */
  holdLinks: number
  holdWords: string[]
  blockWords: string[]
  /** Role slugs whose holders are always published. */
  trustedRoles: string[]
  /** At or above: spam. */
  spamThreshold: number
  /** At or above (and below spamThreshold): held. */
  holdThreshold: number
}

export const DEFAULT_RULES: Rules = {
  holdAll: false,
  holdFirstReplies: 1,
  holdLinks: 3,
  holdWords: [],
  blockWords: [],
  trustedRoles: ['site-owner', 'administrator', 'author'],
  spamThreshold: 0.95,
  holdThreshold: 0.7,
}

/** A word list as the owner types it: one per line or separated by commas (Latin or Chinese ones). */
export function wordList(value: unknown): string[] {
  if (typeof value !== 'string') return []
  return [...new Set(value.split(/[\n,，、;；]+/u).map((w) => w.trim().toLowerCase()).filter(Boolean))].slice(0, 500)
}

const isCjk = (word: string) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(word)

/**
 * The first listed word the text contains as a whole word: bounded by
 * non-letters in Latin scripts ("ass" is not in "class"); anywhere in
 * Chinese, where words are not separated by spaces. One indexOf scan per
 * listed word, so linear in the text for a fixed list.
 */
export function findListedWord(text: string, words: string[]): string | undefined {
  if (words.length === 0) return undefined
  const lower = text.normalize('NFKC').toLowerCase()
  const isLetter = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch)
  for (const word of words) {
    let at = lower.indexOf(word)
    while (at >= 0) {
      if (isCjk(word) || (!isLetter(lower[at - 1]) && !isLetter(lower[at + word.length]))) return word
      at = lower.indexOf(word, at + 1)
    }
  }
  return undefined
}

export type Writer = {
  trusted: boolean
  blocked: boolean
  /** Their replies published so far. */
  publishedReplies: number
}

export type Decision = { state: ReplyState; reasons: string[] } | { refused: string }

export function decide(rules: Rules, text: string, writer: Writer, score: { score: number; reasons: string[] }): Decision {
  const blocked = findListedWord(text, rules.blockWords)
  if (blocked) return { refused: blocked }
  if (writer.trusted) return { state: 'published', reasons: ['trusted role'] }
  if (writer.blocked) return { state: 'spam', reasons: ['blocked writer'] }
  const reasons = [...score.reasons]
  if (score.score >= rules.spamThreshold) return { state: 'spam', reasons: [`score ${score.score.toFixed(2)}`, ...reasons] }
  const holds: string[] = []
  if (rules.holdAll) holds.push('every reply is held')
  if (rules.holdFirstReplies > 0 && writer.publishedReplies < rules.holdFirstReplies) holds.push(rules.holdFirstReplies === 1 ? 'first reply' : `one of the first ${rules.holdFirstReplies} replies`)
  const links = linkHosts(text).length
  if (rules.holdLinks > 0 && links >= rules.holdLinks) holds.push(`${links} links (${rules.holdLinks} or more are held)`)
  const held = findListedWord(text, rules.holdWords)
  if (held) holds.push(`word on the hold list: ${held}`)
  if (score.score >= rules.holdThreshold) holds.push(`score ${score.score.toFixed(2)}`)
  if (holds.length > 0) return { state: 'held', reasons: [...holds, ...reasons] }
  return { state: 'published', reasons }
}
