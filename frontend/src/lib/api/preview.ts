/**
 * The draft preview (src/plugins/drafts): the latest saved version of an
 * article, for whoever holds a valid preview link. The one read of the site
 * that does not run as the visitor: the signed, unexpired token IS the
 * permission (made for the editor by the admin's Preview button), so the
 * version is read with access overridden, and only after the token checks.
 */
import type { Article } from '../../../../src/payload-types'
import { verifyPreviewToken } from '../../../../src/plugins/drafts/previewToken'
import { payload } from './payload'

export async function getPreviewArticle(id: number, token: unknown): Promise<Article | null> {
  if (!verifyPreviewToken(payload().secret, id, token)) return null
  return (await payload().findByID({
    collection: 'articles',
    id,
    draft: true,
    depth: 2,
    select: { markdown: false, content: false },
    populate: { users: { name: true, avatar: true }, categories: { name: true, slug: true }, tags: { name: true, slug: true }, media: { url: true, alt: true, width: true, height: true, sizes: true } },
    disableErrors: true,
    overrideAccess: true,
  })) as Article | null
}
