import type { PayloadRequest } from 'payload'

type Format = 'markdown' | 'html'

/** A new article starts in the format its author used last, else the site's default, else Markdown. */
export async function defaultFormat({ req }: { req: PayloadRequest }): Promise<Format> {
  if (req.user) {
    const { docs } = await req.payload.find({
      collection: 'articles',
      where: { author: { equals: req.user.id } },
      sort: '-updatedAt',
      limit: 1,
      depth: 0,
      select: { format: true },
      req,
    })
    if (docs[0]?.format) return docs[0].format
  }
  const settings = await req.payload.findGlobal({ slug: 'site-settings', depth: 0, req })
  return settings.defaultEditorFormat ?? 'markdown'
}
