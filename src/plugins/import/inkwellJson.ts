/**
 * `export:json <dir>` and `import:json <dir>`: Inkwell's own format, for a
 * move to another Inkwell without loss. The folder holds `inkwell.json` (one
 * JSON document) and `media/` (the uploaded files).
 *
 * The document, section by section in this order (each item refers to others
 * by their ids in this file, never the importing site's):
 *   format "inkwell-export", version 1, exportedAt, site (the exporting site's address)
 *   settings     the site settings (defaultRole as a role slug)
 *   users        email, name, introduction, language, roles (slugs), avatar,
 *                createdAt — never a password hash, salt, token or session:
 *                moved users set a password with "forgot password"
 *   media        filename, alt, owner, createdAt (the file is media/<filename>)
 *   categories   name, slug, description, order;  tags  name, slug
 *   articles     every stored field (title, slug, format, markdown and the
 *                rich-text content, excerpt, language, status, publishedAt,
 *                author, category, tags, SEO meta, featured image, …), with
 *                viewCount, replyCount, lastReplyAt, createdAt, updatedAt;
 *                the rendered HTML is left out (it is made again on import)
 *   replies      article, parent (threads), author or guestName, body,
 *                status (published / held / spam / trash), createdAt
 *   follows      article, follower
 *
 * Written as a stream, an item at a time (a page of 200 read at once), so a
 * big site is never one string in memory; read back as a stream too
 * (jsonSections.ts): once to check it, then once per list, one item (or a
 * chunk of replies) in memory at a time. On import every item's old id is
 * kept in `import_sources` (source "inkwell", the exporting site), so a
 * second run changes nothing; a bad file is refused with the path of the
 * first wrong field (`articles[3].title: …`), before anything is written.
 *
 * Two exports of the same content differ in: exportedAt, site, the ids (each
 * site numbers its own rows) and media filenames when the importing site had
 * a file of that name already. Users' activity (last active) and
 * notifications are not moved.
 */
import { once } from 'node:events'
import { createWriteStream, existsSync, mkdirSync } from 'node:fs'
import { copyFile, stat } from 'node:fs/promises'
import path from 'node:path'

import type { Payload, Where } from 'payload'

import type { CommandIO } from '../../../jobs/commands'
import { query } from '../../lib/pool'
import { readJsonSections } from './jsonSections'
import { ImportFileError, ImportReport } from './report'
import { context, errorText, insertComments, LegacyMap, type ImportContext, type ReplyStatus } from './store'

export const FORMAT = 'inkwell-export'
export const VERSION = 1
const FILE = 'inkwell.json'

type Doc = Record<string, any>

/** Replies read from the file before they are written: bounds memory whatever the number of replies. */
const REPLY_CHUNK = 2000

/** Fields never written: derived on import (html), or kept by the importing site itself. */
const ARTICLE_DROPPED = new Set(['id', 'html', '_status', 'updatedBy', 'createdBy'])

const idOf = (value: unknown): number | null => (value && typeof value === 'object' ? ((value as { id?: number }).id ?? null) : typeof value === 'number' ? value : null)

async function* pages(payload: Payload, collection: string, where?: Where): AsyncGenerator<Doc[]> {
  let last = 0
  for (;;) {
    const { docs } = await payload.find({
      collection: collection as never,
      where: { and: [{ id: { greater_than: last } }, ...(where ? [where] : [])] },
      sort: 'id',
      limit: 200,
      depth: 0,
      overrideAccess: true,
      pagination: false,
    })
    if (!docs.length) return
    last = (docs[docs.length - 1] as Doc).id
    yield docs as Doc[]
  }
}

const has = (payload: Payload, collection: string) => !!(payload.collections as Record<string, unknown>)[collection]

export async function exportJson(payload: Payload, dir: string, baseUrl: string, io: CommandIO): Promise<string> {
  mkdirSync(path.join(dir, 'media'), { recursive: true })
  const out = createWriteStream(path.join(dir, FILE))
  const closed = once(out, 'close')
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  const counts: Record<string, number> = {}
  const section = async (name: string, items: AsyncIterable<Doc>) => {
    await write(`,\n"${name}": [`)
    let n = 0
    for await (const item of items) await write(`${n++ ? ',' : ''}\n${JSON.stringify(item)}`)
    await write('\n]')
    counts[name] = n
    io.log(`  ${name}: ${n}`)
  }
  try {
    const roles = new Map((await query<{ id: number; slug: string }>(payload, 'select id, slug from roles')).map((r) => [r.id, r.slug]))
    await write(`{"format": ${JSON.stringify(FORMAT)}, "version": ${VERSION}, "exportedAt": ${JSON.stringify(new Date().toISOString())}, "site": ${JSON.stringify(new URL(baseUrl).origin)}`)
    const settings = (await payload.findGlobal({ slug: 'site-settings' as never, depth: 0, overrideAccess: true })) as Doc
    const { id: _i, globalType: _g, createdAt: _c, updatedAt: _u, ...kept } = settings
    if (kept.defaultRole != null) kept.defaultRole = roles.get(idOf(kept.defaultRole)!) ?? null
    await write(`,\n"settings": ${JSON.stringify(kept)}`)

    await section('users', (async function* () {
      for await (const docs of pages(payload, 'users')) {
        for (const u of docs) {
          yield {
            id: u.id,
            email: u.email,
            name: u.name ?? null,
            introduction: u.introduction ?? null,
            language: u.language ?? null,
            roles: ((u.roles ?? []) as unknown[]).map((r) => roles.get(idOf(r)!)).filter(Boolean),
            avatar: idOf(u.avatar),
            createdAt: u.createdAt,
          }
        }
      }
    })())

    const staticDir = (payload.collections.media?.config.upload as { staticDir?: string } | undefined)?.staticDir
    await section('media', (async function* () {
      if (!staticDir) return
      for await (const docs of pages(payload, 'media')) {
        for (const m of docs) {
          const from = path.join(staticDir, m.filename)
          if (existsSync(from)) await copyFile(from, path.join(dir, 'media', path.basename(m.filename)))
          else io.log(`  media ${m.id}: its file ${m.filename} is missing; only its record is exported`)
          yield { id: m.id, filename: path.basename(m.filename), url: m.url ?? null, alt: m.alt ?? '', owner: idOf(m.owner), createdAt: m.createdAt }
        }
      }
    })())

    await section('categories', (async function* () {
      for await (const docs of pages(payload, 'categories')) for (const c of docs) yield { id: c.id, name: c.name, slug: c.slug ?? null, description: c.description ?? null, order: c.order ?? null }
    })())
    await section('tags', (async function* () {
      for await (const docs of pages(payload, 'tags')) for (const t of docs) yield { id: t.id, name: t.name, slug: t.slug ?? null }
    })())

    let total = 0
    const [{ n }] = await query<{ n: number }>(payload, 'select count(*)::int as n from articles')
    await section('articles', (async function* () {
      for await (const docs of pages(payload, 'articles')) {
        for (const a of docs) {
          const item: Doc = { id: a.id }
          for (const [key, value] of Object.entries(a)) if (!ARTICLE_DROPPED.has(key)) item[key] = value
          yield item
          io.progress(++total, n)
        }
      }
    })())

    await section('replies', (async function* () {
      for await (const docs of pages(payload, 'replies')) {
        for (const r of docs) {
          yield {
            id: r.id,
            article: idOf(r.article),
            parent: idOf(r.parent),
            author: idOf(r.author),
            guestName: r.guestName ?? null,
            body: r.body,
            status: r.status ?? 'published',
            createdAt: r.createdAt,
          }
        }
      }
    })())

    await section('follows', (async function* () {
      if (!has(payload, 'follows')) return
      for await (const docs of pages(payload, 'follows')) for (const f of docs) yield { id: f.id, article: idOf(f.article), follower: idOf(f.follower), createdAt: f.createdAt }
    })())

    await write('\n}\n')
    out.end()
    await closed
    return `exported ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')} and the settings to ${dir}`
  } catch (error) {
    out.destroy()
    throw error
  }
}

// ---------------------------------------------------------------- reading

type Shape = Record<string, 'string' | 'string?' | 'number' | 'number?' | 'array' | 'object?' | 'any'>

const SHAPES: Record<string, Shape> = {
  users: { id: 'number', email: 'string', name: 'string?', roles: 'array', avatar: 'number?', createdAt: 'string?' },
  media: { id: 'number', filename: 'string', alt: 'string?', owner: 'number?' },
  categories: { id: 'number', name: 'string', slug: 'string?', description: 'string?', order: 'number?' },
  tags: { id: 'number', name: 'string', slug: 'string?' },
  articles: { id: 'number', title: 'string', status: 'string', author: 'number?', category: 'number?', tags: 'array', createdAt: 'string?' },
  replies: { id: 'number', article: 'number', parent: 'number?', author: 'number?', body: 'string', status: 'string', createdAt: 'string' },
  follows: { id: 'number', article: 'number', follower: 'number' },
}
const SECTIONS = Object.keys(SHAPES)

type Header = { format?: unknown; version?: unknown; site: string; settings: Doc; counts: Record<string, number> }

const bad = (where: string, what: string): never => {
  throw new ImportFileError(`not an Inkwell export: ${where}: ${what}`)
}

/** One item of a list, checked against its shape: the first wrong field is named by its path. */
function checkItem(name: string, i: number, item: unknown): void {
  if (!item || typeof item !== 'object' || Array.isArray(item)) bad(`${name}[${i}]`, 'expected an object')
  for (const [key, type] of Object.entries(SHAPES[name]!)) {
    const value = (item as Doc)[key]
    const optional = type.endsWith('?')
    if (value === undefined || value === null) {
      if (!optional && type !== 'any') bad(`${name}[${i}].${key}`, 'missing')
      continue
    }
    const base = type.replace('?', '')
    const ok = base === 'array' ? Array.isArray(value) : base === 'any' || typeof value === base
    if (!ok) bad(`${name}[${i}].${key}`, `expected ${base === 'array' ? 'a list' : `a ${base}`}, found ${JSON.stringify(value).slice(0, 40)}`)
  }
}

/** A read of the file that ends in a clear error, not a stack, when it is not JSON. */
async function* sectionsOf(file: string, wanted?: (key: string) => boolean) {
  try {
    yield* readJsonSections(file, wanted)
  } catch (error) {
    if (error instanceof SyntaxError) throw new ImportFileError(`${file}: not valid JSON (${error.message.slice(0, 200)})`)
    throw error
  }
}

/**
 * The whole file checked, as a stream, before anything is written: its
 * format and version, and every item's shape (the first wrong field named by
 * its path). Returns what the import needs up front: the site, the
 * settings and how many items each list holds.
 */
export async function checkExport(dir: string): Promise<{ file: string; header: Header }> {
  const file = path.join(dir, FILE)
  const info = await stat(file).catch(() => null)
  if (!info) throw new ImportFileError(`${file}: not found (import:json takes the folder export:json wrote)`)
  const values: Doc = {}
  const counts: Record<string, number> = {}
  // The first wrong item is reported after the format and version: a file of another kind is named as such.
  let wrongItem: unknown
  for await (const event of sectionsOf(file)) {
    if ('item' in event) {
      if (!SECTIONS.includes(event.key)) continue
      counts[event.key] = event.index + 1
      if (wrongItem) continue
      try {
        checkItem(event.key, event.index, event.item)
      } catch (error) {
        wrongItem = error
      }
    } else values[event.key] = event.value
  }
  if (values.format !== FORMAT) bad('format', `expected "${FORMAT}", found ${JSON.stringify(values.format ?? null)?.slice(0, 60)}`)
  if (values.version !== VERSION) bad('version', `this Inkwell reads version ${VERSION}, the file is version ${JSON.stringify(values.version ?? null)?.slice(0, 20)}`)
  if (typeof values.site !== 'string') bad('site', 'missing (the exporting site address)')
  if (!values.settings || typeof values.settings !== 'object') bad('settings', 'missing')
  if (wrongItem) throw wrongItem
  // A list is an array key whose items were seen, or an empty one (a value `[]`).
  for (const name of SECTIONS) {
    if (counts[name] === undefined && !(Array.isArray(values[name]) && values[name].length === 0)) bad(name, 'missing (expected a list)')
    counts[name] ??= 0
  }
  return { file, header: { format: values.format, version: values.version, site: values.site, settings: values.settings, counts } }
}

/** The items of one list, read from the file as it goes by (one item in memory at a time). */
async function* itemsOf(file: string, name: string): AsyncGenerator<Doc> {
  for await (const event of sectionsOf(file, (key) => key === name)) if ('item' in event && event.key === name) yield event.item as Doc
}

export type JsonImportOptions = { dir: string; dryRun: boolean; io: CommandIO }

export async function importJson(payload: Payload, options: JsonImportOptions): Promise<ImportReport> {
  // Read as a stream: once to check it all, then once per list as the import reaches it (one item in memory at a time).
  const { file, header } = await checkExport(options.dir)
  const items = (name: string) => itemsOf(file, name)
  const report = new ImportReport('inkwell', options.dir, options.dryRun)
  const map = await LegacyMap.load(payload, 'inkwell', header.site)
  const ctx = context(payload, report, map)
  const write = ctx.dryRun ? null : payload
  const roles = new Map((await query<{ id: number; slug: string }>(payload, 'select id, slug from roles')).map((r) => [r.slug, r.id]))
  const total = SECTIONS.reduce((sum, s) => sum + header.counts[s]!, 0)
  let done = 0
  const step = () => options.io.progress(++done, total)

  await importSettings(ctx, header.settings, roles)

  // Users: the one with that e-mail, else a new one with no password anyone knows.
  const avatars: { user: number; media: number }[] = []
  for await (const u of items('users')) {
    step()
    const known = map.get('user', String(u.id))
    if (known !== undefined) {
      report.existing('authors')
      continue
    }
    const email = String(u.email).trim().toLowerCase()
    const found = await payload.find({ collection: 'users', where: { email: { equals: email } }, limit: 1, depth: 0, overrideAccess: true })
    if (found.docs[0]) {
      report.existing('authors')
      await map.set(write, 'user', String(u.id), found.docs[0].id as number)
      if (u.avatar) avatars.push({ user: found.docs[0].id as number, media: u.avatar })
      continue
    }
    if (ctx.dryRun) {
      report.imported('authors')
      await map.set(null, 'user', String(u.id), ctx.nextPlaceholder())
      continue
    }
    try {
      const roleIds = (u.roles as string[]).map((slug) => roles.get(slug)).filter((r): r is number => r !== undefined)
      const missing = (u.roles as string[]).filter((slug) => !roles.has(slug))
      if (missing.length) report.note(`user ${u.id}: role(s) ${missing.join(', ')} do not exist here and were left out`)
      const user = await payload.create({
        collection: 'users',
        overrideAccess: true,
        disableVerificationEmail: true,
        data: {
          email,
          name: u.name ?? undefined,
          ...(u.introduction ? { introduction: u.introduction } : {}),
          ...(u.language ? { language: u.language } : {}),
          // No one knows this password: a moved user sets theirs with "forgot password".
          password: `Imp0rt!${crypto.randomUUID()}${crypto.randomUUID()}`,
          _verified: true,
        } as never,
        context: { importing: true },
      })
      await payload.update({ collection: 'users', id: user.id, data: { roles: roleIds } as never, overrideAccess: true, context: { importing: true } })
      if (u.createdAt) await query(payload, 'update users set created_at = $2 where id = $1', [user.id, u.createdAt])
      if (u.avatar) avatars.push({ user: user.id as number, media: u.avatar })
      report.imported('authors')
      await map.set(payload, 'user', String(u.id), user.id as number)
    } catch (error) {
      report.fail('authors', String(u.id), errorText(error))
    }
  }
  const user = (id: unknown) => (typeof id === 'number' ? map.get('user', String(id)) : undefined)

  // Media: the files of media/, under their names (a site that has one of that name gets a new name, and links follow).
  const urls = new Map<string, string>()
  for await (const m of items('media')) {
    step()
    const known = map.get('media', `json:${m.id}`)
    if (known !== undefined) {
      report.existing('media')
      continue
    }
    const file = path.join(options.dir, 'media', path.basename(m.filename))
    if (!existsSync(file)) {
      report.fail('media', String(m.id), `its file media/${path.basename(m.filename)} is not in the export`)
      continue
    }
    if (ctx.dryRun) {
      report.imported('media')
      await map.set(null, 'media', `json:${m.id}`, ctx.nextPlaceholder())
      continue
    }
    try {
      const owner = user(m.owner)
      const doc = (await payload.create({
        collection: 'media',
        data: { alt: m.alt ?? '', ...(owner && owner > 0 ? { owner } : {}) } as never,
        filePath: file,
        overrideAccess: true,
        context: { importing: true },
      })) as Doc
      if (m.url && doc.url && m.url !== doc.url) urls.set(m.url, doc.url)
      if (m.createdAt) await query(payload, 'update media set created_at = $2 where id = $1', [doc.id, m.createdAt])
      report.imported('media')
      await map.set(payload, 'media', `json:${m.id}`, doc.id)
    } catch (error) {
      report.fail('media', String(m.id), errorText(error))
    }
  }
  const media = (id: unknown) => (typeof id === 'number' ? map.get('media', `json:${id}`) : undefined)
  for (const a of avatars) {
    const id = media(a.media)
    if (write && id && id > 0) await payload.update({ collection: 'users', id: a.user, data: { avatar: id } as never, overrideAccess: true, context: { importing: true } })
  }

  for (const kind of ['categories', 'tags'] as const) {
    for await (const term of items(kind)) {
      step()
      const known = map.get(kind, String(term.id))
      if (known !== undefined) {
        report.existing(kind)
        continue
      }
      const found = await payload.find({ collection: kind, where: { name: { equals: term.name } }, limit: 1, depth: 0, overrideAccess: true })
      if (found.docs[0]) {
        report.existing(kind)
        await map.set(write, kind, String(term.id), found.docs[0].id as number)
        continue
      }
      if (ctx.dryRun) {
        report.imported(kind)
        await map.set(null, kind, String(term.id), ctx.nextPlaceholder())
        continue
      }
      try {
        const fields = kind === 'categories' ? { description: term.description ?? undefined, order: term.order ?? undefined } : {}
        const doc = await payload.create({ collection: kind, data: { name: term.name, ...(term.slug ? { slug: term.slug } : {}), ...fields } as never, overrideAccess: true, context: { importing: true } })
        report.imported(kind)
        await map.set(payload, kind, String(term.id), doc.id as number)
      } catch (error) {
        report.fail(kind, String(term.id), errorText(error))
      }
    }
  }

  const counters: { id: number; a: Doc }[] = []
  for await (const a of items('articles')) {
    step()
    const known = map.get('article', String(a.id))
    if (known !== undefined) {
      report.existing('articles')
      continue
    }
    if (ctx.dryRun) {
      report.imported('articles')
      await map.set(null, 'article', String(a.id), ctx.nextPlaceholder())
      continue
    }
    const { id: _id, createdAt, updatedAt, viewCount: _v, replyCount: _r, lastReplyAt: _l, ...fields } = a
    const positive = (id: number | undefined) => (id !== undefined && id > 0 ? id : undefined)
    const relinked = relink({ ...fields }, media, urls)
    const articleData: Doc = {
      ...relinked,
      author: positive(user(a.author)) ?? null,
      category: positive(typeof a.category === 'number' ? map.get('categories', String(a.category)) : undefined) ?? null,
      tags: (a.tags as unknown[]).map((t) => positive(map.get('tags', String(t)))).filter(Boolean),
    }
    // The SEO plugin's image is the featured image: a media id.
    if (relinked.meta && typeof relinked.meta === 'object' && relinked.meta.image != null) articleData.meta = { ...relinked.meta, image: positive(media(idOf(relinked.meta.image))) ?? null }
    try {
      const doc = (await payload.create({ collection: 'articles', data: articleData as never, overrideAccess: true, context: { importing: true } })) as Doc
      await query(payload, 'update articles set created_at = coalesce($2::timestamptz, created_at), updated_at = coalesce($3::timestamptz, updated_at) where id = $1', [
        doc.id,
        createdAt ?? null,
        updatedAt ?? null,
      ])
      // Where the slug came from (src/plugins/slugs): given here it would count as the editor's, and an automatic one would no longer follow its title.
      if (typeof a.slugOrigin === 'string' && doc.slugOrigin !== a.slugOrigin) await query(payload, 'update articles set slug_origin = $2 where id = $1', [doc.id, a.slugOrigin])
      // Only what the counters need: the articles themselves are not kept.
      counters.push({ id: doc.id, a: { viewCount: a.viewCount, replyCount: a.replyCount, lastReplyAt: a.lastReplyAt } })
      report.imported('articles')
      await map.set(payload, 'article', String(a.id), doc.id)
    } catch (error) {
      report.fail('articles', String(a.id), errorText(error))
    }
  }

  // Replies, a chunk of the file at a time (in id order, so a thread's first reply comes before its answers),
  // an article's at a time within it, in the SQL batches the other importers use (no notifications: they are history).
  const importReplies = async (chunk: Doc[]) => {
    const byArticle = new Map<number, Doc[]>()
    for (const r of chunk) byArticle.set(r.article, [...(byArticle.get(r.article) ?? []), r])
    for (const [oldArticle, replies] of byArticle) {
      for (const _ of replies) step()
      const article = map.get('article', String(oldArticle))
      if (article === undefined) {
        for (const r of replies) report.skip('replies', String(r.id), `its article ${oldArticle} was not imported`)
        continue
      }
      await insertComments(
        ctx,
        article,
        replies.map((r) => ({
          legacyId: String(r.id),
          parentLegacyId: typeof r.parent === 'number' ? String(r.parent) : undefined,
          authorId: user(r.author),
          guestName: r.guestName ?? undefined,
          html: r.body,
          createdAt: r.createdAt,
          status: r.status as ReplyStatus,
        })),
        (body) => body,
      )
    }
  }
  let chunk: Doc[] = []
  for await (const r of items('replies')) {
    chunk.push(r)
    if (chunk.length >= REPLY_CHUNK) {
      await importReplies(chunk)
      chunk = []
    }
  }
  await importReplies(chunk)
  // The counters as they were (insertComments counted the replies; views are the old site's).
  for (const { id, a } of counters) {
    await query(payload, 'update articles set view_count = $2, reply_count = coalesce($3, reply_count), last_reply_at = $4 where id = $1', [id, a.viewCount ?? 0, a.replyCount ?? null, a.lastReplyAt ?? null])
  }

  for await (const f of items('follows')) {
    step()
    if (!has(payload, 'follows')) break
    const article = map.get('article', String(f.article))
    const follower = user(f.follower)
    if (map.get('follow', String(f.id)) !== undefined) {
      report.existing('follows')
      continue
    }
    if (!article || !follower) {
      report.skip('follows', String(f.id), 'its article or follower was not imported')
      continue
    }
    if (ctx.dryRun) {
      report.imported('follows')
      continue
    }
    const [row] = await query<{ id: number }>(
      payload,
      `insert into follows (article_id, follower_id, created_at, updated_at) values ($1, $2, coalesce($3::timestamptz, now()), now())
         on conflict do nothing returning id`,
      [article, follower, f.createdAt ?? null],
    )
    if (row) report.imported('follows')
    else report.existing('follows')
    const [kept] = row ? [row] : await query<{ id: number }>(payload, 'select id from follows where article_id = $1 and follower_id = $2', [article, follower])
    if (kept) await map.set(payload, 'follow', String(f.id), kept.id)
  }
  return report
}

/** The site settings, written only where they differ (so a second run changes nothing). */
async function importSettings(ctx: ImportContext, settings: Doc, roles: Map<string, number>): Promise<void> {
  const { payload, report } = ctx
  const current = (await payload.findGlobal({ slug: 'site-settings' as never, depth: 0, overrideAccess: true })) as Doc
  const wanted: Doc = { ...settings }
  if (typeof wanted.defaultRole === 'string') wanted.defaultRole = roles.get(wanted.defaultRole) ?? null
  const changed = Object.keys(wanted).filter((k) => JSON.stringify(wanted[k] ?? null) !== JSON.stringify(current[k] ?? null))
  if (!changed.length) {
    report.existing('settings')
    return
  }
  report.imported('settings')
  report.note(`settings changed: ${changed.join(', ')}`)
  if (ctx.dryRun) return
  try {
    await payload.updateGlobal({ slug: 'site-settings' as never, data: Object.fromEntries(changed.map((k) => [k, wanted[k]])) as never, overrideAccess: true, context: { importing: true } })
  } catch (error) {
    report.fail('settings', 'site-settings', errorText(error))
  }
}

/** An article's media references (upload ids, in fields and rich text) and media links, for the importing site's. */
function relink(value: unknown, media: (id: unknown) => number | undefined, urls: Map<string, string>): any {
  if (typeof value === 'string') {
    let text = value
    for (const [from, to] of urls) text = text.split(from).join(to)
    return text
  }
  if (Array.isArray(value)) return value.map((v) => relink(v, media, urls))
  if (value && typeof value === 'object') {
    const o = value as Doc
    const out: Doc = {}
    for (const [k, v] of Object.entries(o)) out[k] = relink(v, media, urls)
    // Lexical's upload node: { type: 'upload', relationTo: 'media', value: <id> }.
    if (o.type === 'upload' && o.relationTo === 'media') out.value = media(idOf(o.value)) ?? null
    return out
  }
  return value
}
