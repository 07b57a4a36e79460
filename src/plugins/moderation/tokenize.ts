/**
 * Words of a reply for the spam classifier, in English and Chinese alike:
 * `Intl.Segmenter` (built into Node, ICU's dictionary for Chinese) splits the
 * text into words, lower-cased; links become `domain:<host>` tokens, so a
 * domain the moderators marked as spam weighs on the next reply that links it.
 * Linear in the input: one pass of the segmenter and one of a linear regex.
 */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

/** http(s) links and bare www. ones; no nested quantifiers (linear). */
export const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"'()\]]+/giu

/** The host of each link in the text (lower case, without `www.`). */
export function linkHosts(text: string): string[] {
  const hosts: string[] = []
  for (const match of text.matchAll(LINK)) {
    const raw = match[0].startsWith('www.') ? `http://${match[0]}` : match[0]
    try {
      hosts.push(new URL(raw).hostname.toLowerCase().replace(/^www\./, ''))
    } catch {
      hosts.push('invalid-link')
    }
  }
  return hosts
}

/** The most tokens read from one reply: a 20 KB reply costs no more than this. */
export const MAX_TOKENS = 2000

const HAN = /^\p{Script=Han}+$/u

export function tokenize(text: string): string[] {
  const tokens: string[] = linkHosts(text).map((host) => `domain:${host}`)
  const withoutLinks = text.replace(LINK, ' ').normalize('NFKC').toLowerCase()
  // ICU's dictionary misses new words (微信 comes out as 微 + 信): a run of Chinese
  // characters also gives its character pairs, which catch them.
  let han = ''
  const flushHan = () => {
    for (let i = 0; i + 1 < han.length && tokens.length < MAX_TOKENS; i++) tokens.push(`zh:${han.slice(i, i + 2)}`)
    han = ''
  }
  for (const { segment, isWordLike } of segmenter.segment(withoutLinks)) {
    if (tokens.length >= MAX_TOKENS) break
    if (!isWordLike) {
      flushHan()
      continue
    }
    if (HAN.test(segment)) han += segment
    else flushHan()
    // Numbers say little on their own; their shape (a phone number, a price) says more.
    tokens.push(/^\d+$/.test(segment) ? `num:${Math.min(segment.length, 8)}` : segment)
  }
  flushHan()
  return tokens.slice(0, MAX_TOKENS)
}
