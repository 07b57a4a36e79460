import type { Language } from '../../lib/i18n/languages'

/** Payload's name for each catalog language (its admin's `payload-lng` cookie holds these). */
export const PAYLOAD_LANGUAGE: Record<Language, 'en' | 'zh'> = { en: 'en', 'zh-CN': 'zh' }
