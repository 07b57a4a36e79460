'use client'
/** The catalogs' `t` (and its language) in a client admin component, following Payload's own interface language. */
import { useTranslation } from '@payloadcms/ui'
import { useMemo } from 'react'

import { translator, type Language, type Translate } from '../../../lib/i18n'
import { adminLanguage } from './adminLanguage'

export function useAdminT(): { t: Translate; lang: Language } {
  const { i18n } = useTranslation()
  const lang = adminLanguage(i18n)
  return useMemo(() => ({ t: translator(lang), lang }), [lang])
}
