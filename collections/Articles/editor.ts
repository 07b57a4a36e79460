/**
 * The rich-text ("HTML") editor of articles: Payload's Lexical editor with
 * headings, lists, links, quotes, code blocks with a chosen language, images
 * from Media and tables. The same feature list is used to convert Markdown
 * into this editor's format when an article switches format.
 */
import {
  BlocksFeature,
  CodeBlock,
  EXPERIMENTAL_TableFeature,
  FixedToolbarFeature,
  HeadingFeature,
  lexicalEditor,
  UploadFeature,
  type FeatureProviderServer,
} from '@payloadcms/richtext-lexical'

/**
 * Code blocks with a language picker. Their source is a plain textarea:
 * Payload's default code field loads Monaco from a CDN, and the admin makes
 * no requests to third parties.
 */
function codeBlock() {
  const block = CodeBlock({ defaultLanguage: 'typescript' })
  const fields = block.fields.map((field) =>
    'name' in field && field.name === 'code'
      ? ({ name: 'code', type: 'textarea', label: 'Code', admin: { rows: 8, className: 'code-block-source' } } as const)
      : field,
  )
  return { ...block, fields }
}

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
  ]
}

export const articleEditor = lexicalEditor({ features: articleEditorFeatures })
