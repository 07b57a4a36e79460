import type { Language } from './languages'

/** Each language by its own name (the switcher shows them so, whatever the page's language). */
export const LANGUAGE_NAMES: [Language, string][] = [
  ['en', 'English'],
  ['zh-CN', '简体中文'],
]
