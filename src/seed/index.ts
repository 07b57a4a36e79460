/**
 * Demo content for a fresh site. Idempotent: every item is looked up by its
 * natural key (e-mail, slug, URL) first, so running it again adds nothing.
 * The demo password is public, so this never runs in production unless forced.
 */
import type { Payload } from 'payload'
import sharp from 'sharp'

import { AUTHOR } from '../access/catalog'
import { slugify } from '../lib/slug'
import { CATEGORIES, demoArticles, LINKS, lexicalDocument, REPLY_TEXTS, rng, SITE_META, TAGS } from './content'

export type SeedOptions = { password: string; log?: (message: string) => void; articles?: number }

export const DEMO_USERS = [
  { email: 'owner@inkwell.test', name: 'Olivia Owner', introduction: 'Started this blog. Owns the site.' },
  { email: 'admin@inkwell.test', name: 'Adam Admin', introduction: 'Keeps the lights on.' },
  { email: 'author@inkwell.test', name: 'Ada Author', introduction: 'Writes about databases and the web.', author: true },
  { email: 'author2@inkwell.test', name: 'Li Wei', introduction: '写代码，也写文章。', author: true },
  ...Array.from({ length: 10 }, (_, i) => ({
    email: `reader${i + 1}@inkwell.test`,
    name: `Reader ${i + 1}`,
    introduction: 'Here for the articles.',
  })),
]

function progress(log: (m: string) => void, label: string, done: number, total: number) {
  if (done === total || done % 10 === 0) log(`[seed] ${label} ${done}/${total}`)
}

async function findOne(payload: Payload, collection: 'users' | 'categories' | 'tags' | 'links' | 'articles' | 'media', field: string, value: string) {
  const { docs } = await payload.find({ collection, where: { [field]: { equals: value } }, limit: 1, depth: 0 })
  return docs[0] as { id: number } | undefined
}

/** A gradient image made in memory, so the seed ships no binary files. */
async function demoImage(index: number): Promise<Buffer> {
  const random = rng(index + 7)
  const hue = Math.floor(random() * 360)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},65%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},70%,35%)"/></linearGradient></defs><rect width="1200" height="630" fill="url(#g)"/><circle cx="${300 + index * 37 % 600}" cy="315" r="180" fill="rgba(255,255,255,0.18)"/></svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

/** The demo's Chinese titles are Simplified Chinese; the rest are English. */
export function languageOf(title: string): string {
  return /\p{Script=Han}/u.test(title) ? 'zh-CN' : 'en'
}

/**
 * The home page's description and keywords, so a fresh demo has them before
 * an owner fills them in; values an owner already set are kept.
 */
export async function seedSiteMeta(payload: Payload) {
  const settings = await payload.findGlobal({ slug: 'site-settings', depth: 0 })
  const meta = settings.meta ?? {}
  if (meta.description && meta.keywords) return
  await payload.updateGlobal({
    slug: 'site-settings',
    data: {
      meta: {
        ...meta,
        description: meta.description || SITE_META.description,
        keywords: meta.keywords || SITE_META.keywords,
      },
    },
  })
}

export async function seedDemo(payload: Payload, { password, log = console.log, articles: articleCount = 40 }: SeedOptions) {
  const started = Date.now()
  log('[seed] Seeding demo content…')

  await seedSiteMeta(payload)

  const userIds: number[] = []
  let owner: { id: number } | undefined
  for (const [i, demo] of DEMO_USERS.entries()) {
    let user = await findOne(payload, 'users', 'email', demo.email)
    if (!user) {
      // The first two take the site-owner and administrator roles from the registration rule.
      user = await payload.create({
        collection: 'users',
        data: { email: demo.email, name: demo.name, introduction: demo.introduction, password },
      })
      if ('author' in demo && demo.author) {
        const role = await payload.find({ collection: 'roles', where: { slug: { equals: AUTHOR } }, limit: 1, depth: 0 })
        await payload.update({ collection: 'users', id: user.id, data: { roles: [role.docs[0]!.id] } })
      }
    }
    if (i === 0) owner = user
    userIds.push(user.id)
    progress(log, 'users', i + 1, DEMO_USERS.length)
  }
  const authors = [userIds[2]!, userIds[3]!, userIds[1]!]
  const readers = userIds.slice(4)

  const categoryIds: number[] = []
  for (const category of CATEGORIES) {
    const found = await findOne(payload, 'categories', 'slug', slugify(category.name))
    categoryIds.push(
      found?.id ??
        (await payload.create({ collection: 'categories', data: { ...category, slug: slugify(category.name), order: categoryIds.length } })).id,
    )
  }
  log(`[seed] categories ${categoryIds.length}/${CATEGORIES.length}`)

  const tagIds: number[] = []
  for (const name of TAGS) {
    const found = await findOne(payload, 'tags', 'slug', slugify(name))
    tagIds.push(found?.id ?? (await payload.create({ collection: 'tags', data: { name, slug: slugify(name) } })).id)
  }
  log(`[seed] tags ${tagIds.length}/${TAGS.length}`)

  for (const [i, link] of LINKS.entries()) {
    if (!(await findOne(payload, 'links', 'url', link.url))) {
      await payload.create({ collection: 'links', data: { ...link, order: i } })
    }
  }
  log(`[seed] links ${LINKS.length}/${LINKS.length}`)

  const demos = demoArticles(articleCount)
  const random = rng(7)
  for (const [i, demo] of demos.entries()) {
    const slug = demo.repeat ? `${slugify(demo.title)}-${i}` : slugify(demo.title)
    if (await findOne(payload, 'articles', 'slug', slug)) {
      progress(log, 'articles', i + 1, demos.length)
      continue
    }
    let markdown = demo.markdown
    let imageId: number | undefined
    if (demo.withImage) {
      const name = `seed-${i + 1}.png`
      const existing = await findOne(payload, 'media', 'filename', name)
      const data = await demoImage(i)
      imageId =
        existing?.id ??
        (
          await payload.create({
            collection: 'media',
            data: { alt: `Illustration for “${demo.title}”`, owner: authors[demo.authorIndex] },
            file: { data, mimetype: 'image/png', name, size: data.length },
          })
        ).id
      if (markdown) markdown = `![Illustration for ${demo.title}](/api/media/file/${name})\n\n${markdown}`
    }
    // Spread over the past weeks, the newest a few hours ago.
    const publishedAt = new Date(Date.now() - (demos.length - i) * 36 * 3600 * 1000).toISOString()
    const article = await payload.create({
      collection: 'articles',
      data: {
        title: demo.title,
        slug,
        format: demo.format,
        markdown,
        content: demo.format === 'html' ? (lexicalDocument('Written in the rich-text editor', demo.paragraphs) as never) : undefined,
        category: categoryIds[demo.categoryIndex],
        tags: demo.tagIndexes.map((t) => tagIds[t]!),
        author: authors[demo.authorIndex],
        status: i === demos.length - 1 ? 'draft' : 'published',
        publishedAt: i === demos.length - 1 ? undefined : publishedAt,
        language: languageOf(demo.title),
        meta: { title: demo.title, description: demo.paragraphs[0], keywords: demo.tagIndexes.map((t) => TAGS[t]).join(', '), image: imageId },
      },
    })
    // A few replies from readers, oldest first; none on the draft (replies go to published articles only).
    const drawn = Math.floor(random() * 5)
    const replies = article.status === 'published' ? drawn : 0
    for (let r = 0; r < replies; r++) {
      await payload.create({
        collection: 'replies',
        context: { silent: true }, // demo replies mail no one
        data: {
          article: article.id,
          author: readers[(i + r) % readers.length],
          body: REPLY_TEXTS[(i + r) % REPLY_TEXTS.length]!,
        },
      })
    }
    progress(log, 'articles', i + 1, demos.length)
  }

  log(`[seed] Done in ${((Date.now() - started) / 1000).toFixed(1)} s (site owner: user #${owner?.id}).`)
}
