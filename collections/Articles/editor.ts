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
    BlocksFeature({ blocks: [CodeBlock({ defaultLanguage: 'typescript' })] }),
    EXPERIMENTAL_TableFeature(),
    FixedToolbarFeature(),
  ]
}

export const articleEditor = lexicalEditor({ features: articleEditorFeatures })
