/**
 * Payload's admin labels and descriptions in both of its languages, read from
 * the project's catalogs: Payload accepts `Record<language, string>` wherever a
 * label or description is static (StaticLabel, StaticDescription) and shows the
 * entry for the admin's language (`en` or `zh`, the `payload-lng` cookie). So a
 * collection's, global's or field's words come from ./en.ts and ./zh-CN.ts,
 * the one source the reader site and mails use, never an English literal.
 */
import { t, type Language, type MessageKey, type Params } from './index'

/** Payload's language codes for the two catalogs (its Chinese is `zh`). */
export type AdminLabel = { en: string; zh: string }

/**
 * The catalog message `key` as a Payload label object: `{ en, zh }`. Parameters
 * that are words themselves come as a function of the language.
 */
export const bothLanguages = (key: MessageKey, params?: Params | ((lang: Language) => Params)): AdminLabel => {
  const of = (lang: Language) => (typeof params === 'function' ? params(lang) : params)
  return { en: t('en', key, of('en')), zh: t('zh-CN', key, of('zh-CN')) }
}

/** The catalog prefixes that have both a `.singular` and a `.plural` message. */
type Labelled = { [K in MessageKey]: K extends `${infer P}.singular` ? (`${P}.plural` extends MessageKey ? P : never) : never }[MessageKey]

/** A collection's `labels` from the catalog's `<prefix>.singular` and `<prefix>.plural`. */
export const collectionLabels = (prefix: Labelled) => ({
  singular: bothLanguages(`${prefix}.singular`),
  plural: bothLanguages(`${prefix}.plural`),
})

/** A collection's sidebar group in the admin. */
export const adminGroup = (group: 'content' | 'people' | 'settings' | 'site') => bothLanguages(`admin.group.${group}`)

/** The values whose catalog key `<prefix>.<value>` exists: a select's option without its label is a type error. */
type OptionValue<P extends string> = { [K in MessageKey]: K extends `${P}.${infer V}` ? V : never }[MessageKey]

/**
 * A select field's `options`, each labelled from the catalog's `<prefix>.<value>`
 * in both languages, so the admin shows "草稿" to a Chinese editor where it
 * shows "Draft" to an English one; the stored value stays the code.
 */
export const optionLabels = <P extends string, V extends OptionValue<P>>(prefix: P, values: readonly V[]): { value: V; label: AdminLabel }[] =>
  values.map((value) => ({ value, label: bothLanguages(`${prefix}.${value}` as MessageKey) }))
