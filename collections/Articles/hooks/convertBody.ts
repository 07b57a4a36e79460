import { ValidationError, type PayloadRequest } from 'payload'

import { markdownSwitch, refusal, richTextSwitch } from './conversionCheck'
import { validationTranslator } from '../../../src/lib/i18n/request'

type Body = { markdown?: string | null; content?: unknown }

/**
 * The body in the format the article switches to, converted from the one it
 * had. Only the target field is written: the source field stays as it was.
 * A switch that would change what the reader sees is refused with a
 * validation error on the format field naming what would change, on every
 * path (admin, REST, GraphQL, Local API).
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
    if (!markdown.trim()) return {}
    const { content, changes } = await markdownSwitch(markdown, req)
    if (changes.length) throw new ValidationError({ collection: 'articles', errors: [{ path: 'format', message: refusal(to, changes, validationTranslator(req)) }] })
    return { content }
  }
  const { markdown, changes } = await richTextSwitch(data.content ?? originalDoc.content, req)
  if (changes.length) throw new ValidationError({ collection: 'articles', errors: [{ path: 'format', message: refusal(to, changes, validationTranslator(req)) }] })
  return markdown ? { markdown } : {}
}
