/**
 * Where imported things land, shared by the WordPress and Ghost importers:
 * the legacy-id map that makes a re-import change nothing (`import_sources`,
 * one row per source site, kind and old id), and find-or-create for users,
 * categories, tags, articles, replies and redirects. Articles, users and terms
 * go through the Local API (their hooks render, slug and index them); replies
 * go in batches of SQL after their article exists, with the article's counts
 * recomputed once, since 100 000 comments cannot each run every reply hook
 * (nor should they notify anyone: they are history, not news).
 */
import { commitTransaction, createLocalReq, initTransaction, killTransaction, type Payload, type PayloadRequest } from 'payload'

import { AUTHOR } from '../../access/catalog'
import { renderMarkdown, storableMarkdown } from '../../lib/markdown'
import { EMAIL_PATTERN } from '../../lib/emailAddress'
import { poolOf, query } from '../../lib/pool'
import { normalizeRedirectPath } from '../../lib/redirectPath'
import { bulkSettings, insertArticlesInBulk, type ArticleData, type BulkSettings } from './bulkArticles'
import { ImportReport, type Kind } from './report'
import { publicReplySql } from '../../../collections/Replies/access'

export type Source = 'wordpress' | 'ghost' | 'inkwell'

/** The old id → new id map of one source site, loaded once. */
export class LegacyMap {
  private ids = new Map<string, number>()
  constructor(
    readonly source: Source,
    readonly site: string,
  ) {}

  static async load(payload: Payload, source: Source, site: string): Promise<LegacyMap> {
    const map = new LegacyMap(source, site)
    const rows = await query<{ kind: string; legacy_id: string; target_id: number }>(
      payload,
      'select kind, legacy_id, target_id from import_sources where source = $1 and site = $2',
      [source, site],
    )
    for (const r of rows) map.ids.set(`${r.kind}:${r.legacy_id}`, r.target_id)
    return map
  }

  get(kind: string, legacyId: string): number | undefined {
    return this.ids.get(`${kind}:${legacyId}`)
  }

  forget(kind: string, legacyId: string): void {
    this.ids.delete(`${kind}:${legacyId}`)
  }

  /** Many pairs of one kind in one statement (a batch of articles, once its transaction is committed). */
  async setMany(payload: Payload, kind: string, pairs: (readonly [string, number])[]): Promise<void> {
    for (const [legacy, id] of pairs) this.ids.set(`${kind}:${legacy}`, id)
    if (!pairs.length) return
    await query(
      payload,
      `insert into import_sources (source, site, kind, legacy_id, target_id) select $1, $2, $3, l, t from unnest($4::text[], $5::int[]) as x(l, t)
         on conflict (source, site, kind, legacy_id) do update set target_id = excluded.target_id`,
      [this.source, this.site, kind, pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    )
  }

  /** Remembers the pair (in the database too unless `dryRun`, when the id is a placeholder). */
  async set(payload: Payload | null, kind: string, legacyId: string, targetId: number): Promise<void> {
    this.ids.set(`${kind}:${legacyId}`, targetId)
    if (!payload) return
    await query(
      payload,
      'insert into import_sources (source, site, kind, legacy_id, target_id) values ($1, $2, $3, $4, $5) on conflict (source, site, kind, legacy_id) do update set target_id = excluded.target_id',
      [this.source, this.site, kind, legacyId, targetId],
    )
  }
}

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max - 1).trimEnd() + '…' : text)

export type ImportContext = {
  payload: Payload
  report: ImportReport
  map: LegacyMap
  dryRun: boolean
  nextPlaceholder: () => number
  /** What the bulk path of articles reads once per import (bulkArticles.ts); false: every article through the Local API. */
  bulk?: BulkSettings | false
}

export function context(payload: Payload, report: ImportReport, map: LegacyMap, { bulk = true }: { bulk?: boolean } = {}): ImportContext {
  let placeholder = 0
  return { payload, report, map, dryRun: report.dryRun, nextPlaceholder: () => --placeholder, ...(bulk ? {} : { bulk: false }) }
}

async function roleId(payload: Payload, slug: string): Promise<number> {
  const { docs } = await payload.find({ collection: 'roles', where: { slug: { equals: slug } }, limit: 1, depth: 0, overrideAccess: true })
  if (!docs[0]) throw new Error(`the "${slug}" role is missing: run the migrations`)
  return docs[0].id as number
}

async function siteOwnerId(payload: Payload): Promise<number | undefined> {
  const [row] = await query<{ id: number }>(
    payload,
    `select u.id from users u join users_rels ur on ur.parent_id = u.id and ur.path = 'roles' join roles r on r.id = ur.roles_id where r.slug = 'site-owner' order by u.id limit 1`,
  )
  return row?.id
}

export type Person = { legacyId: string; email: string; name: string; login: string }

/**
 * An author: the user with their e-mail if there is one, else a new user with
 * the author role and no password anyone knows (they set one with "forgot
 * password"). `isOwner`: this author's work goes to the site owner (who is
 * created from them when the site has no users yet).
 */
export async function ensureAuthor(ctx: ImportContext, person: Person, isOwner: boolean): Promise<number | undefined> {
  const { payload, report, map } = ctx
  const known = map.get('author', person.legacyId)
  if (known !== undefined) {
    report.existing('authors')
    return known
  }
  const email = person.email.trim().toLowerCase()
  if (isOwner) {
    const owner = await siteOwnerId(payload)
    if (owner !== undefined) {
      report.existing('authors')
      report.note(`author ${person.login} is the site owner (user ${owner})`)
      await map.set(ctx.dryRun ? null : payload, 'author', person.legacyId, owner)
      return owner
    }
  }
  if (!EMAIL_PATTERN.test(email)) {
    report.skip('authors', person.login, `no usable e-mail address ("${clip(person.email, 80)}"): their posts go to the site owner`)
    return undefined
  }
  const found = await payload.find({ collection: 'users', where: { email: { equals: email } }, limit: 1, depth: 0, overrideAccess: true })
  if (found.docs[0]) {
    report.existing('authors')
    await map.set(ctx.dryRun ? null : payload, 'author', person.legacyId, found.docs[0].id as number)
    return found.docs[0].id as number
  }
  if (ctx.dryRun) {
    report.imported('authors')
    const id = ctx.nextPlaceholder()
    await map.set(null, 'author', person.legacyId, id)
    return id
  }
  try {
    const user = await payload.create({
      collection: 'users',
      overrideAccess: true,
      disableVerificationEmail: true,
      // No one knows this password: the author sets theirs with "forgot password".
      data: { email, name: clip(person.name.trim() || person.login || email.split('@')[0]!, 100), password: unknowablePassword(), _verified: true } as never,
      context: { importing: true },
    })
    const ownerNow = (await siteOwnerId(payload)) === user.id
    if (!ownerNow) await payload.update({ collection: 'users', id: user.id, data: { roles: [await roleId(payload, AUTHOR)] } as never, overrideAccess: true, context: { importing: true } })
    report.imported('authors')
    await map.set(payload, 'author', person.legacyId, user.id as number)
    return user.id as number
  } catch (error) {
    report.fail('authors', person.login, errorText(error))
    return undefined
  }
}

function unknowablePassword(): string {
  return `Imp0rt!${crypto.randomUUID()}${crypto.randomUUID()}`
}

export function errorText(error: unknown): string {
  const data = (error as { data?: { errors?: { path?: string; message?: string }[] } }).data
  if (data?.errors?.length) return data.errors.map((e) => `${e.path ?? ''}: ${e.message ?? ''}`).join('; ')
  return clip((error as Error).message ?? String(error), 300)
}

/** A category or tag, by its old id, else by its name (names are unique), else created. */
export async function ensureTerm(
  ctx: ImportContext,
  collection: 'categories' | 'tags',
  term: { legacyId: string; name: string; slug?: string; description?: string },
): Promise<number | undefined> {
  const { payload, report, map } = ctx
  const kind: Kind = collection
  const known = map.get(collection, term.legacyId)
  if (known !== undefined) {
    report.existing(kind)
    return known
  }
  const max = collection === 'tags' ? 40 : 60
  const name = clip(term.name.trim(), max)
  if (!name) {
    report.skip(kind, term.legacyId, 'no name')
    return undefined
  }
  const found = await payload.find({ collection, where: { name: { equals: name } }, limit: 1, depth: 0, overrideAccess: true })
  if (found.docs[0]) {
    report.existing(kind)
    await map.set(ctx.dryRun ? null : payload, collection, term.legacyId, found.docs[0].id as number)
    return found.docs[0].id as number
  }
  if (ctx.dryRun) {
    report.imported(kind)
    const id = ctx.nextPlaceholder()
    await map.set(null, collection, term.legacyId, id)
    return id
  }
  try {
    const slug = usableSlug(term.slug)
    const data: Record<string, unknown> = { name, ...(slug ? { slug } : {}) }
    if (collection === 'categories' && term.description) data.description = clip(term.description, 500)
    const doc = await payload.create({ collection, data: data as never, overrideAccess: true, context: { importing: true } })
    report.imported(kind)
    await map.set(payload, collection, term.legacyId, doc.id as number)
    return doc.id as number
  } catch (error) {
    report.fail(kind, term.legacyId, errorText(error))
    return undefined
  }
}

/** A slug kept from the old site when it is one Inkwell would make (percent-encoded ones are decoded). */
export function usableSlug(slug: string | undefined): string | undefined {
  if (!slug) return undefined
  let decoded = slug
  try {
    decoded = decodeURIComponent(slug)
  } catch {
    return undefined
  }
  return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(decoded) && decoded.length <= 120 ? decoded : undefined
}

export type ArticleInput = {
  legacyId: string
  kind: 'articles' | 'pages'
  title: string
  slug?: string
  markdown: string
  excerpt?: string
  status: 'draft' | 'published'
  publishedAt?: string
  createdAt?: string
  updatedAt?: string
  authorId?: number
  categoryId?: number
  tagIds: number[]
  metaTitle?: string
  metaDescription?: string
}

function articleData(ctx: ImportContext, input: ArticleInput): { data: Record<string, unknown>; slug: string | undefined } {
  const { payload } = ctx
  const title = clip(input.title.trim(), 200) || '(untitled)'
  const slug = usableSlug(input.slug)
  const meta = input.metaTitle || input.metaDescription ? { meta: { title: input.metaTitle ? clip(input.metaTitle, 200) : undefined, description: input.metaDescription ? clip(input.metaDescription, 300) : undefined } } : {}
  const data = {
    title,
    ...(slug ? { slug } : {}),
    format: 'markdown',
    markdown: storableMarkdown(input.markdown),
    ...(input.excerpt?.trim() ? { excerpt: clip(input.excerpt.trim(), 500) } : {}),
    status: input.status,
    ...(input.publishedAt ? { publishedAt: input.publishedAt } : {}),
    ...(input.authorId !== undefined && input.authorId > 0 ? { author: input.authorId } : {}),
    ...(input.categoryId !== undefined && input.categoryId > 0 ? { category: input.categoryId } : {}),
    tags: input.tagIds.filter((t) => t > 0),
    ...(payload.collections.articles?.config.fields.some((f) => 'name' in f && f.name === 'meta') ? meta : {}),
  }
  return { data, slug }
}

/**
 * The old site's dates, on the row and on the version written with it: a
 * version carries its row's dates (the drafts plugin tells a pending draft
 * by a draft version newer than its row, publishedState.ts).
 */
async function setDates(payload: Payload, rows: { id: number; createdAt?: string; updatedAt?: string }[]): Promise<void> {
  const dated = rows.filter((r) => r.createdAt || r.updatedAt)
  if (!dated.length) return
  await query(
    payload,
    `with x as (select * from unnest($1::int[], $2::timestamptz[], $3::timestamptz[]) as x(id, c, u)),
          a as (update articles a set created_at = coalesce(x.c, a.created_at), updated_at = coalesce(x.u, a.updated_at)
                  from x where a.id = x.id returning a.id, a.created_at, a.updated_at)
     update _articles_v v set version_created_at = a.created_at, version_updated_at = a.updated_at from a where v.parent_id = a.id`,
    [dated.map((r) => r.id), dated.map((r) => r.createdAt ?? null), dated.map((r) => r.updatedAt ?? null)],
  )
}

export type ArticleResult = { id: number; slug: string; created: boolean }

/** Returns the article's id (existing, new, or a placeholder in a dry run), or undefined when it failed. */
export async function ensureArticle(ctx: ImportContext, input: ArticleInput): Promise<ArticleResult | undefined> {
  const { payload, report, map } = ctx
  const known = map.get('article', input.legacyId)
  if (known !== undefined) {
    report.existing(input.kind)
    const [row] = known > 0 ? await query<{ slug: string }>(payload, 'select slug from articles where id = $1', [known]) : []
    return { id: known, slug: row?.slug ?? '', created: false }
  }
  if (ctx.dryRun) {
    report.imported(input.kind)
    const id = ctx.nextPlaceholder()
    await map.set(null, 'article', input.legacyId, id)
    return { id, slug: '', created: true }
  }
  const { data, slug } = articleData(ctx, input)
  let doc: { id: number; slug?: string | null }
  try {
    doc = (await payload.create({ collection: 'articles', data: data as never, depth: 0, overrideAccess: true, context: { importing: true } })) as never
  } catch (error) {
    // A slug taken by another article: let Inkwell make one from the title.
    if (!slug) {
      report.fail(input.kind, input.legacyId, errorText(error))
      return undefined
    }
    try {
      const { slug: _dropped, ...rest } = data as Record<string, unknown>
      doc = (await payload.create({ collection: 'articles', data: rest as never, depth: 0, overrideAccess: true, context: { importing: true } })) as never
      report.note(`${input.kind} ${input.legacyId}: its slug "${slug}" could not be kept (${errorText(error)}); a new one was made`)
    } catch (again) {
      report.fail(input.kind, input.legacyId, errorText(again))
      return undefined
    }
  }
  await setDates(payload, [{ id: doc.id, createdAt: input.createdAt, updatedAt: input.updatedAt }])
  report.imported(input.kind)
  await map.set(payload, 'article', input.legacyId, doc.id)
  return { id: doc.id, slug: doc.slug ?? '', created: true }
}

/**
 * A batch of articles (a big import's hot path). The new ones go in by SQL,
 * a few statements for the whole batch (insertArticlesInBulk, bulkArticles.ts:
 * what the collection's hooks would do, done for many at once); those that
 * need something only the hooks do, through the Local API, their `create`s in
 * one transaction. If either fails (a taken slug aborts the transaction), it
 * is undone and its articles go one at a time through ensureArticle, which
 * knows what to do about each and reports each failure.
 */
export async function ensureArticles(ctx: ImportContext, inputs: ArticleInput[]): Promise<(ArticleResult | undefined)[]> {
  const { report, map } = ctx
  const fresh = [...new Map(inputs.filter((i) => map.get('article', i.legacyId) === undefined).map((i) => [i.legacyId, i])).values()]
  if (ctx.dryRun || fresh.length < 2) {
    const out: (ArticleResult | undefined)[] = []
    for (const input of inputs) out.push(await ensureArticle(ctx, input))
    return out
  }
  const created = new Map<string, { id: number; slug: string }>()
  let throughHooks = fresh
  if (ctx.bulk !== false) {
    try {
      ctx.bulk ??= await bulkSettings(ctx.payload)
      const bulk = await insertArticlesInBulk(ctx, fresh.map((input) => ({ input, data: articleData(ctx, input).data as ArticleData })), ctx.bulk)
      for (const [legacy, doc] of bulk.created) created.set(legacy, doc)
      throughHooks = bulk.routed.map((r) => r.input)
    } catch {
      // Undone whole: the Local API below writes them (or reports why it cannot).
    }
  }
  if (throughHooks.length >= 2) {
    const viaApi = await createThroughLocalApi(ctx, throughHooks)
    for (const [legacy, doc] of viaApi ?? []) created.set(legacy, doc)
  }
  const out: (ArticleResult | undefined)[] = []
  const counted = new Set<string>()
  for (const input of inputs) {
    const doc = created.get(input.legacyId)
    if (doc && !counted.has(input.legacyId)) {
      counted.add(input.legacyId)
      report.imported(input.kind)
      out.push({ ...doc, created: true })
    } else out.push(await ensureArticle(ctx, input))
  }
  return out
}

/**
 * Articles through the Local API — every hook and rule of the collection
 * runs, as for one — but their `create`s in one transaction, so the batch
 * pays one commit; then their dates and old ids in one statement each.
 * Undefined when any of them failed (the transaction is undone).
 */
async function createThroughLocalApi(ctx: ImportContext, inputs: ArticleInput[]): Promise<Map<string, { id: number; slug: string }> | undefined> {
  const { payload, map } = ctx
  const created = new Map<string, { id: number; slug: string }>()
  let req: PayloadRequest | undefined
  try {
    req = await createLocalReq({}, payload)
    await initTransaction(req)
    for (const input of inputs) {
      const doc = (await payload.create({ collection: 'articles', data: articleData(ctx, input).data as never, depth: 0, overrideAccess: true, req, context: { importing: true } })) as { id: number; slug?: string | null }
      created.set(input.legacyId, { id: doc.id, slug: doc.slug ?? '' })
    }
    await commitTransaction(req)
  } catch {
    if (req) await killTransaction(req).catch(() => {})
    return undefined
  }
  await setDates(payload, inputs.map((i) => ({ id: created.get(i.legacyId)!.id, createdAt: i.createdAt, updatedAt: i.updatedAt })))
  await map.setMany(payload, 'article', [...created].map(([legacy, doc]) => [legacy, doc.id] as const))
  return created
}

export type CommentInput = {
  legacyId: string
  parentLegacyId?: string
  authorId?: number
  guestName?: string
  html: string
  createdAt: string
  /**
   * Its moderation state (the moderation plugin's `status` on replies): an
   * export's pending comment comes in held, its spam as spam, its trash as
   * trash, so a moderator sees them where they would have. Default: published.
   */
  status?: ReplyStatus
}

export type ReplyStatus = 'published' | 'held' | 'spam' | 'trash'

/**
 * An article's comments, in as few statements as threads allow: top-level
 * ones first, then answers (attached to their thread's top-level reply, since
 * Inkwell's threads are one level deep). Bodies become Markdown and are
 * rendered through the one sanitizer. Then the article's counts, once.
 */
export async function insertComments(
  ctx: ImportContext,
  articleId: number,
  comments: CommentInput[],
  toMarkdown: (html: string) => string,
): Promise<void> {
  return insertCommentsOfArticles(ctx, [{ articleId, comments }], toMarkdown)
}

type CommentRow = { articleId: number; c: CommentInput; body: string; top: string }

/**
 * The comments of many articles (a batch of a big import) in one transaction:
 * one insert per level and 500 rows, the old ids in one statement per insert,
 * and the articles' counts in one statement.
 */
export async function insertCommentsOfArticles(
  ctx: ImportContext,
  groups: { articleId: number; comments: CommentInput[] }[],
  toMarkdown: (html: string) => string,
): Promise<void> {
  const { payload, report, map } = ctx
  // Without the moderation plugin replies have no state: only published ones can come in.
  const hasStatus = payload.collections.replies?.config.fields.some((f) => 'name' in f && f.name === 'status')
  const rows: CommentRow[] = []
  for (const { articleId, comments } of groups) {
    const fresh = comments.filter((c) => {
      if (map.get('reply', c.legacyId) === undefined) return true
      report.existing('replies')
      return false
    })
    if (!fresh.length) continue
    const byId = new Map(comments.map((c) => [c.legacyId, c]))
    const topOf = (c: CommentInput): string => {
      let current = c
      for (let depth = 0; current.parentLegacyId && byId.has(current.parentLegacyId) && depth < 1000; depth++) current = byId.get(current.parentLegacyId)!
      // An answer whose thread came in earlier (another chunk of a streamed file, or an earlier import) joins it.
      if (current.parentLegacyId && !byId.has(current.parentLegacyId) && map.get('reply', current.parentLegacyId) !== undefined) return current.parentLegacyId
      return current.legacyId
    }
    if (comments.some((c) => c.parentLegacyId && byId.get(c.parentLegacyId)?.parentLegacyId)) {
      report.note('replies nested deeper than one level were attached to the top reply of their thread (Inkwell threads are one level deep)')
    }
    for (const c of fresh) {
      if (!hasStatus && c.status && c.status !== 'published') {
        report.skip('replies', c.legacyId, `${c.status === 'held' ? 'pending moderation' : c.status}: replies have no moderation state without the moderation plugin, so it was not published`)
        continue
      }
      const body = clip(toMarkdown(c.html).trim(), 5000)
      if (!body) {
        report.skip('replies', c.legacyId, 'empty comment')
        continue
      }
      rows.push({ articleId, c, body, top: topOf(c) })
    }
  }
  if (!rows.length) return
  if (ctx.dryRun) {
    report.imported('replies', rows.length)
    return
  }
  const hasGuestName = payload.collections.replies?.config.fields.some((f) => 'name' in f && f.name === 'guestName')
  const articleIds = [...new Set(rows.map((r) => r.articleId))]
  const pool = poolOf(payload)
  // Imports write several batches at once, and the articles' triggers (dashboard roll-ups) can make two
  // of them wait on each other: Postgres then aborts one (a deadlock), which is simply tried again.
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect()
    const ids = new Map<string, number>()
    try {
      await client.query('begin')
      for (const level of [rows.filter((r) => r.top === r.c.legacyId), rows.filter((r) => r.top !== r.c.legacyId)]) {
        for (let i = 0; i < level.length; i += 500) {
          const batch = level.slice(i, i + 500)
          const values: unknown[] = []
          const tuples: string[] = []
          for (const r of batch) {
            const parent = r.top === r.c.legacyId ? null : (ids.get(r.top) ?? map.get('reply', r.top) ?? null)
            const html = await renderMarkdown(r.body)
            const base = values.length
            values.push(r.articleId, r.c.authorId && r.c.authorId > 0 ? r.c.authorId : null, parent, storableMarkdown(r.body), html, r.c.createdAt)
            if (hasGuestName) values.push(r.c.authorId && r.c.authorId > 0 ? null : clip(r.c.guestName?.trim() || 'Anonymous', 100))
            // A published one was announced on the old site: first_published_at keeps it from being announced again.
            if (hasStatus) values.push(r.c.status ?? 'published', (r.c.status ?? 'published') === 'published' ? r.c.createdAt : null)
            const n = 6 + (hasGuestName ? 1 : 0) + (hasStatus ? 2 : 0)
            tuples.push(`(${Array.from({ length: n }, (_, k) => `$${base + k + 1}`).join(', ')}, $${base + 6})`)
          }
          const columns = `article_id, author_id, parent_id, body, html, created_at${hasGuestName ? ', guest_name' : ''}${hasStatus ? ', status, first_published_at' : ''}, updated_at`
          const inserted = await client.query<{ id: number }>(`insert into replies (${columns}) values ${tuples.join(', ')} returning id`, values)
          const pairs = batch.map((r, k) => [r.c.legacyId, inserted.rows[k]!.id] as const)
          await client.query(
            `insert into import_sources (source, site, kind, legacy_id, target_id) select $1, $2, 'reply', l, t from unnest($3::text[], $4::int[]) as x(l, t) on conflict do nothing`,
            [map.source, map.site, pairs.map((p) => p[0]), pairs.map((p) => p[1])],
          )
          for (const [legacy, id] of pairs) ids.set(legacy, id)
        }
      }
      const visible = hasStatus ? ` and ${publicReplySql('r')}` : ''
      await client.query(
        `update articles a set reply_count = (select count(*) from replies r where r.article_id = a.id${visible}),
                last_reply_at = (select max(r.created_at) from replies r where r.article_id = a.id${visible})
          where a.id = any($1::int[])`,
        [articleIds.sort((a, b) => a - b)],
      )
      await client.query('commit')
      for (const [legacy, id] of ids) await map.set(null, 'reply', legacy, id)
      report.imported('replies', rows.length)
      return
    } catch (error) {
      await client.query('rollback').catch(() => {})
      const code = (error as { code?: string }).code
      if ((code === '40P01' || code === '40001') && attempt < 5) continue
      for (const r of rows) report.fail('replies', r.c.legacyId, errorText(error))
      return
    } finally {
      client.release()
    }
  }
}

/** Old paths that should answer 301 with one new path. */
export type RedirectGroup = { froms: (string | undefined)[]; to: string }

/**
 * 301s from old paths to new ones, kept in the redirects plugin's collection
 * (normalized as the site looks them up: normalizeRedirectPath). One SQL
 * statement per call, however many groups: an import makes five or so per
 * article and passes a batch of articles at once; the collection has no
 * hooks to run. An old path already taken (before, or earlier in the same
 * call) keeps its target.
 */
export async function ensureRedirectGroups(ctx: ImportContext, groups: RedirectGroup[]): Promise<void> {
  if (!(ctx.payload.collections as Record<string, unknown>).redirects) return
  const froms: string[] = []
  const tos: string[] = []
  for (const { froms: olds, to } of groups) {
    const target = normalizeRedirectPath(to)
    const paths = [...new Set(olds.map((f) => (f ? normalizeRedirectPath(f) : null)))].filter((p): p is string => !!p && p !== '/' && p !== target)
    for (const path of paths) {
      froms.push(path)
      tos.push(to)
    }
  }
  if (!froms.length) return
  const { payload, report } = ctx
  if (ctx.dryRun) {
    const found = new Set((await query<{ from: string }>(payload, 'select "from" from redirects where "from" = any($1::text[])', [froms])).map((r) => r.from))
    const there = froms.filter((f) => found.has(f)).length
    report.existing('redirects', there)
    report.imported('redirects', froms.length - there)
    return
  }
  // `on conflict do nothing` also skips a path given twice in this statement: the first one given wins.
  const inserted = await query<{ id: number }>(
    payload,
    `insert into redirects ("from", to_type, to_url) select f, 'custom', t from unnest($1::text[], $2::text[]) with ordinality as x(f, t, n) order by n on conflict ("from") do nothing returning id`,
    [froms, tos],
  )
  report.imported('redirects', inserted.length)
  report.existing('redirects', froms.length - inserted.length)
}

/** 301s from old paths to one new path (ensureRedirectGroups with one group). */
export async function ensureRedirects(ctx: ImportContext, froms: (string | undefined)[], to: string): Promise<void> {
  return ensureRedirectGroups(ctx, [{ froms, to }])
}

export async function ensureRedirect(ctx: ImportContext, from: string | undefined, to: string): Promise<void> {
  return ensureRedirects(ctx, [from], to)
}
