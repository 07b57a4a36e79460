import type { Endpoint } from 'payload'

import { hasPermission } from '../../../src/access'
import { renderMarkdown } from '../../../src/lib/markdown'
import { linkPolicyOf } from '../../../src/plugins/content/options'
import { errorResponse } from '../../../src/lib/errorResponse'
import { translatorFor } from '../../../src/lib/i18n/request'

const MAX_PREVIEW_LENGTH = 500_000

/**
 * POST /api/articles/preview {"markdown": "…"} → {"html": "…"}: the Markdown
 * editor's live preview, rendered by the very renderer, highlighter and
 * sanitizer that produce the public page. Writers only.
 */
export const previewEndpoint: Endpoint = {
  path: '/preview',
  method: 'post',
  handler: async (req) => {
    const t = translatorFor(req)
    if (!req.user || !(await hasPermission(req, 'articles.create'))) {
      return Response.json({ errors: [{ message: t('error.preview.forbidden') }] }, { status: 403 })
    }
    const body = (await req.json?.().catch(() => undefined)) as { markdown?: unknown } | undefined
    const markdown = body?.markdown
    if (typeof markdown !== 'string') {
      return errorResponse(400, { fields: { markdown: t('error.preview.notText') } })
    }
    if (markdown.length > MAX_PREVIEW_LENGTH) {
      return errorResponse(400, { fields: { markdown: t('error.preview.tooLong', { max: MAX_PREVIEW_LENGTH }) } })
    }
    return Response.json({ html: await renderMarkdown(markdown, { links: linkPolicyOf(req.payload) }) }, { headers: { 'Cache-Control': 'no-store' } })
  },
}

/** A GET of the preview URL says which method it wants instead of looking for an article with the id "preview". */
export const previewNeedsPost: Endpoint = {
  path: '/preview',
  method: 'get',
  handler: (req) =>
    Response.json(
      { errors: [{ message: translatorFor(req)('error.preview.usePost') }] },
      { status: 405, headers: { Allow: 'POST' } },
    ),
}
