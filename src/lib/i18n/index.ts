/**
 * The interface's languages: two catalogs (./en.ts and ./zh-CN.ts, the second
 * typed by the first, so a key missing from either is a type error, and
 * tests/unit/i18n-catalogs.test.ts checks it at run time too), `t` to read a
 * message with its parameters, and the Intl helpers for numbers, plurals,
 * dates and relative times. Shared by the reader site, mails and the admin;
 * no Payload import, so it is usable anywhere.
 *
 * A message is a string with `{name}` placeholders, or plural forms
 * (`{ one, other }`, chosen by Intl.PluralRules on the `count` parameter).
 * Number parameters are formatted with Intl.NumberFormat in the language.
 */
import { en, type Message } from './en'
import { zhCN } from './zh-CN'

import type { Language } from './languages'

export { LANGUAGES, supportedLanguage, type Language } from './languages'
export const DEFAULT_LANGUAGE: Language = 'en'
export type MessageKey = keyof typeof en
export type Catalog = Record<MessageKey, Message>
export type Params = Record<string, string | number>
export type Translate = (key: MessageKey, params?: Params) => string

export const CATALOGS: Record<Language, Catalog> = { en, 'zh-CN': zhCN }

const numberFormats = new Map<Language, Intl.NumberFormat>()
const pluralRules = new Map<Language, Intl.PluralRules>()
function cached<T>(map: Map<Language, T>, lang: Language, make: () => T): T {
  let v = map.get(lang)
  if (!v) map.set(lang, (v = make()))
  return v
}

/** 1,234 / 1,234 — a number as the language writes it. */
export function formatNumber(lang: Language, n: number): string {
  return cached(numberFormats, lang, () => new Intl.NumberFormat(lang)).format(n)
}

const PLACEHOLDER = /\{(\w+)\}/g

/** The message `key` in `lang`, its `{placeholders}` filled from `params`. */
export function t(lang: Language, key: MessageKey, params: Params = {}): string {
  const message = CATALOGS[lang][key] ?? en[key]
  let text: string
  if (typeof message === 'string') text = message
  else {
    const count = Number(params.count ?? 0)
    const form = cached(pluralRules, lang, () => new Intl.PluralRules(lang)).select(count) as keyof typeof message
    text = message[form] ?? message.other
  }
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = params[name]
    return v === undefined ? whole : typeof v === 'number' ? formatNumber(lang, v) : v
  })
}

/** `t` bound to a language: what pages, components, mails receive. */
export function translator(lang: Language): Translate {
  return (key, params) => t(lang, key, params)
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()
/** A date (and optionally time) in the language, in the site's time zone. */
export function formatDate(lang: Language, date: Date | string, timeZone: string, style: 'medium' | 'long' = 'medium', withTime = false): string {
  const id = `${lang}|${timeZone}|${style}|${withTime}`
  let f = dateFormats.get(id)
  if (!f) dateFormats.set(id, (f = new Intl.DateTimeFormat(lang, { dateStyle: style, ...(withTime ? { timeStyle: 'short' } : {}), timeZone })))
  return f.format(new Date(date))
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['week', 7 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]
/** "3 hours ago" / "3小时前": the distance from `now`, in the largest whole unit. */
export function relativeTime(lang: Language, date: Date | string, now: Date = new Date()): string {
  const seconds = (new Date(date).getTime() - now.getTime()) / 1000
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? UNITS[UNITS.length - 1]
  return new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(Math.round(seconds / size), unit)
}

export { negotiateLanguage, requestedLanguage, LANGUAGE_COOKIE } from './negotiate'
