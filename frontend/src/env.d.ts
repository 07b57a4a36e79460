/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The signed-in visitor, resolved once per request by src/middleware.ts. */
    me: import('../../src/payload-types').User | null
    /** Whether the visitor may write articles (enter the admin and create one): only they see "Write". */
    canWrite: boolean
    /** The interface language of this page (src/middleware.ts). */
    lang: import('../../src/lib/i18n').Language
    /** The catalog (src/lib/i18n) in that language: `t('key', { param })`. */
    t: import('../../src/lib/i18n').Translate
  }
}
