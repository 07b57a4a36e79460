/**
 * What a word classifier misses, read from the text and from the writer's
 * account: each signal adds log-odds to the score and names itself in the
 * reasons a moderator reads. Pure and linear in the text.
 */
import { linkHosts } from './tokenize'

export type Facts = {
  /** How old the writer's account is, in minutes (undefined: no account). */
  accountAgeMinutes?: number
  /** Replies the writer posted in the last ten minutes. */
  recentReplies?: number
  /** Replies with the same text posted by other accounts in the last week. */
  sameTextElsewhere?: number
  /** The spam score of the writer's registration (registration.ts). */
  registrationScore?: number
  /** Akismet's opinion, when it is configured and was asked (akismet.ts). */
  akismet?: 'spam' | 'ham' | 'unavailable'
}

export type Signal = { reason: string; weight: number }

const SHORTENERS = new Set(['bit.ly', 't.co', 'tinyurl.com', 'goo.gl', 'ow.ly', 'is.gd', 'buff.ly', 'cutt.ly', 'rebrand.ly', 'shorturl.at', 't.cn', 'dwz.cn', 'url.cn', 'tiny.cc', 'rb.gy', 's.id', 'v.gd'])

/** Zero-width and other invisible format characters (not ordinary spaces). */
export const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/gu

/** A word that mixes Latin letters with Cyrillic or Greek ones: "pаypal" with a Cyrillic а. Two single-class tests per word: linear. */
const LATIN = /\p{Script=Latin}/u
const CYRILLIC_OR_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u

function hasMixedScriptWord(text: string): boolean {
  for (const word of text.split(/[^\p{L}]+/u)) {
    if (word.length > 1 && LATIN.test(word) && CYRILLIC_OR_GREEK.test(word)) return true
  }
  return false
}

/**
 * Akismet's "spam" weighs as much as the strongest local signals: alone on a
 * new account it holds the reply (score about 0.9), with one more sign it
 * reaches spam. Its "ham" leans a little to genuine: the owner's rules (a
 * first reply, links, listed words) still hold what they hold. Unavailable
 * weighs nothing but is named, so a moderator knows the opinion is missing.
 */
export const AKISMET_SPAM_WEIGHT = 4
export const AKISMET_HAM_WEIGHT = -0.5

function akismetSignal(verdict: Facts['akismet']): Signal | undefined {
  if (verdict === 'spam') return { reason: 'Akismet: spam', weight: AKISMET_SPAM_WEIGHT }
  if (verdict === 'ham') return { reason: 'Akismet: not spam', weight: AKISMET_HAM_WEIGHT }
  if (verdict === 'unavailable') return { reason: 'Akismet unavailable', weight: 0 }
  return undefined
}

export function signals(text: string, facts: Facts = {}): Signal[] {
  const found: Signal[] = []
  const hosts = linkHosts(text)
  if (hosts.length > 0) found.push({ reason: hosts.length === 1 ? '1 link' : `${hosts.length} links`, weight: Math.min(4, 0.6 * hosts.length) })
  const distinctHosts = new Set(hosts)
  if (distinctHosts.size >= 3) found.push({ reason: `${distinctHosts.size} different domains`, weight: 1 })
  const shortened = hosts.filter((h) => SHORTENERS.has(h)).length
  if (shortened > 0) found.push({ reason: 'shortened link', weight: 3 })
  if (hasMixedScriptWord(text)) found.push({ reason: 'mixed-script look-alike letters', weight: 3.5 })
  const invisible = text.match(INVISIBLE)?.length ?? 0
  if (invisible > 0) found.push({ reason: `${invisible} invisible character${invisible === 1 ? '' : 's'}`, weight: Math.min(3, 1 + invisible / 4) })
  if ((facts.sameTextElsewhere ?? 0) > 0) found.push({ reason: `same text from ${facts.sameTextElsewhere} other account${facts.sameTextElsewhere === 1 ? '' : 's'}`, weight: 4 })
  if ((facts.recentReplies ?? 0) >= 5) found.push({ reason: `${facts.recentReplies} replies in 10 minutes`, weight: Math.min(3, (facts.recentReplies! - 3) * 0.5) })
  if ((facts.registrationScore ?? 0) >= 0.5) found.push({ reason: 'suspicious registration', weight: 3 })
  const second = akismetSignal(facts.akismet)
  if (second) found.push(second)
  if (facts.accountAgeMinutes !== undefined && facts.accountAgeMinutes < 60) found.push({ reason: 'new account', weight: 0.8 })
  else if (facts.accountAgeMinutes !== undefined && facts.accountAgeMinutes < 24 * 60) found.push({ reason: 'account less than a day old', weight: 0.3 })
  // Shouting and long runs of one character.
  const letters = text.replace(/[^\p{Lu}\p{Ll}]/gu, '')
  if (letters.length >= 20 && letters.replace(/\P{Lu}/gu, '').length / letters.length > 0.6) found.push({ reason: 'mostly capitals', weight: 1.2 })
  return found
}

/** The text without invisible characters and with whitespace collapsed: what "the same text" compares. */
export function normalizedText(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim().toLowerCase()
}
