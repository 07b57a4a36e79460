import { convertMarkdownToLexical, editorConfigFactory } from '@payloadcms/richtext-lexical'
import type { PayloadRequest } from 'payload'
import TurndownService from 'turndown'
import { gfm } from 'turndown-plugin-gfm'

import { articleEditorFeatures } from '../editor'
import { mediaFinder, renderLexical } from './renderLexical'

type Body = { markdown?: string | null; content?: unknown }

function turndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' })
  service.use(gfm)
  return service
}

/** HTML → Markdown with turndown (GFM tables and strikethrough; fenced code keeps its language class). */
export function htmlToMarkdown(html: string): string {
  return turndown().turndown(html)
}

let editorConfig: ReturnType<typeof editorConfigFactory.fromFeatures> | undefined

/** Markdown → the rich-text editor's JSON, with Payload's own converter and the articles' editor features. */
export async function markdownToLexical(markdown: string, req: PayloadRequest) {
  editorConfig ??= editorConfigFactory.fromFeatures({ config: req.payload.config, features: articleEditorFeatures })
  return convertMarkdownToLexical({ editorConfig: await editorConfig, markdown })
}

/**
 * The body in the format the article switches to, converted from the one it
 * had. Only the target field is written: the source field stays as it was.
 */
export async function convertBody({
  data,
  originalDoc,
  to,
  req,
}: {
  data: Body
  originalDoc: Body
  to: 'markdown' | 'html'
  req: PayloadRequest
}): Promise<Body> {
  if (to === 'html') {
    const markdown = data.markdown ?? originalDoc.markdown ?? ''
    return markdown.trim() ? { content: await markdownToLexical(markdown, req) } : {}
  }
  const html = await renderLexical(data.content ?? originalDoc.content, mediaFinder(req))
  return html.trim() ? { markdown: htmlToMarkdown(html) } : {}
}
