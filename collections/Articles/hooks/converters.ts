/**
 * Markdown ⇄ the rich-text editor's JSON, with Payload's own converters and
 * the articles' editor features (the switch itself, and its check: convertBody.ts).
 */
import { convertLexicalToMarkdown, convertMarkdownToLexical, editorConfigFactory, type SanitizedServerEditorConfig } from '@payloadcms/richtext-lexical'
import type { PayloadRequest } from 'payload'

import { articleEditorFeatures } from '../editor'
import {
  imageUrls,
  mediaFilename,
  prepareMarkdown,
  siteImageTransformer,
  tidyImported,
  uploadIds,
  withPopulatedUploads,
  type SiteMedia,
} from './markdownLexical'
import { mediaFinder } from './renderLexical'

type Body = { markdown?: string | null; content?: unknown }
type EditorState = Parameters<typeof tidyImported>[0]

let editorConfig: Promise<SanitizedServerEditorConfig> | undefined

/** The articles' rich-text editor config (features and their Markdown transformers), built once. */
function articleEditorConfig(req: PayloadRequest): Promise<SanitizedServerEditorConfig> {
  editorConfig ??= editorConfigFactory.fromFeatures({ config: req.payload.config, features: articleEditorFeatures })
  return editorConfig
}

/** The site's media files a Markdown body shows, by file name, read with the editor's own access. */
async function siteMediaOf(markdown: string, req: PayloadRequest): Promise<Map<string, SiteMedia>> {
  const serverURL = req.payload.config.serverURL
  const names = [...new Set(imageUrls(markdown).map((url) => mediaFilename(url, serverURL)))].filter((n): n is string => !!n)
  if (!names.length) return new Map()
  const { docs } = await req.payload.find({ collection: 'media', where: { filename: { in: names } }, limit: names.length, depth: 0, req })
  return new Map(docs.map((doc) => [doc.filename!, doc]))
}

/** Markdown → the rich-text editor's JSON, with Payload's own converter and the articles' editor features. */
export async function markdownToLexical(markdown: string, req: PayloadRequest) {
  const config = await articleEditorConfig(req)
  const serverURL = req.payload.config.serverURL
  const media = await siteMediaOf(markdown, req)
  const isSiteImage = (url: string) => media.has(mediaFilename(url, serverURL) ?? '')
  const withSiteImages: SanitizedServerEditorConfig = {
    ...config,
    features: { ...config.features, markdownTransformers: [siteImageTransformer(media, serverURL), ...config.features.markdownTransformers] },
  }
  const state = convertMarkdownToLexical({ editorConfig: withSiteImages, markdown: prepareMarkdown(markdown, isSiteImage) })
  return tidyImported(state as unknown as EditorState)
}

/** The rich-text editor's JSON → Markdown, with Payload's own converter; images of the site's media as `![alt](/api/media/file/…)`. */
export async function lexicalToMarkdown(content: unknown, req: PayloadRequest): Promise<string> {
  const state = content as EditorState | null | undefined
  if (!state?.root) return ''
  const ids = uploadIds(state)
  const media = new Map((ids.length ? await mediaFinder(req)(ids) : []).map((doc) => [String(doc.id), doc as SiteMedia]))
  const markdown = convertLexicalToMarkdown({ data: withPopulatedUploads(state, media) as never, editorConfig: await articleEditorConfig(req) })
  return markdown.trim() ? markdown + '\n' : ''
}
