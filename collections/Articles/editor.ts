/**
 * The rich-text ("HTML") editor of articles: Payload's Lexical editor with
 * headings, lists, links, quotes, code blocks with a chosen language, images
 * from Media and tables. The same feature list is used to convert Markdown
 * into this editor's format when an article switches format.
 */
import {
  BlocksFeature,
  CodeBlock,
  createServerFeature,
  EXPERIMENTAL_TableFeature,
  FixedToolbarFeature,
  HeadingFeature,
  lexicalEditor,
  UploadFeature,
  type FeatureProviderServer,
} from '@payloadcms/richtext-lexical'

import { CODE_LANGUAGES } from './hooks/markdownLexical'
import { bothLanguages } from '../../src/lib/i18n/labels'

/**
 * Code blocks with a language picker offering every language the site
 * highlights (shiki's). The language is stored as text, so a Markdown fence
 * in a language the picker does not list still converts (and keeps its name)
 * instead of failing validation. The source is a plain textarea: Payload's
 * default code field loads Monaco from a CDN, and the admin makes no
 * requests to third parties.
 */
/**
 * A code block's language is free text (any fence's info word converts), but
 * only a name: letters (of any script: shiki knows wenyan as `文言`), digits and `+ # . _ -`. It ends up in a class name and
 * a Markdown fence, so nothing else is accepted on any path.
 */
const LANGUAGE_NAME = /^[\p{L}\p{N}_+#.-]*$/u
function validLanguageName(value: unknown): true | string {
  if (value === null || value === undefined) return true
  if (typeof value !== 'string' || value.length > 40 || !LANGUAGE_NAME.test(value)) return 'Language: a language name (letters, digits, + # . _ -), at most 40 characters.'
  return true
}

function codeBlock() {
  const block = CodeBlock({ defaultLanguage: 'typescript', languages: CODE_LANGUAGES })
  const fields = block.fields.map((field) => {
    if (!('name' in field)) return field
    if (field.name === 'code') return { name: 'code', type: 'textarea', label: bothLanguages('admin.field.codeBlock.code.label'), admin: { rows: 8, className: 'code-block-source' } } as const
    if (field.name === 'language')
      return { name: 'language', label: bothLanguages('admin.field.codeBlock.language.label'), type: 'text', maxLength: 40, defaultValue: 'typescript', validate: validLanguageName, admin: { hidden: true } } as const
    return field
  })
  return { ...block, fields, jsx: fencedCode }
}

/**
 * Markdown import and export of code blocks. Payload's converter writes a
 * one-line block without a language as "```code```" (inline code to every
 * Markdown reader) and imports a fence without a language as the code
 * "undefined…"; a block is always a fence here, with its language or none.
 */
const fencedCode = {
  customStartRegex: /^[ \t]*```([\p{L}\p{N}_#+.-]*)(?:[ \t][^`\n]*)?$/u,
  customEndRegex: { optional: true as const, regExp: /^[ \t]*```[ \t]*$/ },
  doNotTrimChildren: true,
  export: ({ fields }: { fields: Record<string, unknown> }) => {
    const code = typeof fields.code === 'string' ? fields.code : ''
    return '```' + (typeof fields.language === 'string' ? fields.language : '') + '\n' + code + '\n```'
  },
  import: ({ children, openMatch }: { children: string; openMatch?: RegExpMatchArray | null }) => ({
    code: children.replace(/^\n/, '').replace(/\n$/, ''),
    language: openMatch?.[1] ?? '',
  }),
}

/** Ctrl+S commits what the editor shows before saving (src/plugins/content/admin/RichTextSave). */
const RichTextSaveFeature = createServerFeature({
  feature: { ClientFeature: '/src/plugins/content/admin/RichTextSave#RichTextSaveFeatureClient' },
  key: 'richTextSave',
})

export function articleEditorFeatures({
  defaultFeatures,
}: {
  defaultFeatures: FeatureProviderServer<any, any, any>[]
}): FeatureProviderServer<any, any, any>[] {
  const replaced = new Set(['heading', 'upload'])
  return [
    ...defaultFeatures.filter((f) => !replaced.has(f.key)),
    HeadingFeature({ enabledHeadingSizes: ['h2', 'h3', 'h4'] }),
    UploadFeature({ collections: { media: { fields: [{ name: 'alt', type: 'text', maxLength: 200 }] } } }),
    BlocksFeature({ blocks: [codeBlock()] }),
    EXPERIMENTAL_TableFeature(),
    FixedToolbarFeature(),
    RichTextSaveFeature(),
  ]
}

export const articleEditor = lexicalEditor({ features: articleEditorFeatures })
