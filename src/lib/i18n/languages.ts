/** The two interface languages and how a language tag maps onto them. */
export const LANGUAGES = ['en', 'zh-CN'] as const
export type Language = (typeof LANGUAGES)[number]

/** The catalog language for a tag (`zh`, `zh-Hans-CN`, `EN-us` …), or null when neither is meant. */
export function supportedLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null
  const t = tag.trim().toLowerCase()
  if (t === 'en' || t.startsWith('en-')) return 'en'
  // Traditional script or other regions are still closer to zh-CN than to English for this interface.
  if (t === 'zh' || t.startsWith('zh-')) return 'zh-CN'
  return null
}
