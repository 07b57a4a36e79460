/**
 * `export:wordpress <file.xml>`: everything a WordPress importer takes, as a
 * WXR 1.2 file written as a stream (articles a page at a time): authors,
 * categories, tags, articles (their rendered, sanitized HTML, with this
 * site's media as absolute URLs), and replies with their threads. Moving out
 * is as easy as moving in.
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

import type { Payload } from 'payload'

import type { CommandIO } from '../../../jobs/commands'
import { query } from '../../lib/pool'

const xml = (text: unknown) =>
  String(text ?? '')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
const cdata = (text: unknown) => `<![CDATA[${String(text ?? '').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/]]>/g, ']]]]><![CDATA[>')}]]>`
/** WordPress's "Y-m-d H:i:s" in UTC. */
const wpDate = (value: unknown) => (value ? new Date(String(value)).toISOString().slice(0, 19).replace('T', ' ') : '0000-00-00 00:00:00')

/** A reply's moderation state → WordPress's comment_approved (held ones wait in WordPress's queue). */
const APPROVED: Record<string, string> = { published: '1', held: '0', spam: 'spam', trash: 'trash' }

export async function exportWordPress(payload: Payload, file: string, baseUrl: string, io: CommandIO): Promise<string> {
  const hasStatus = payload.collections.replies?.config.fields.some((f) => 'name' in f && f.name === 'status')
  const origin = new URL(baseUrl).origin
  const absolute = (html: string) => html.replace(/(\s(?:src|href)=")\/(?!\/)/g, `$1${origin}/`)
  const out = createWriteStream(file)
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  const closed = once(out, 'close')
  try {
    await write(`<?xml version="1.0" encoding="UTF-8" ?>
<!-- A WordPress eXtended RSS (WXR 1.2) export of ${xml(origin)}, written by Inkwell. Import it with WordPress's importer (Tools → Import → WordPress). -->
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
  <title>${xml(origin)}</title>
  <link>${xml(origin)}</link>
  <description></description>
  <pubDate>${new Date().toUTCString()}</pubDate>
  <language>en</language>
  <wp:wxr_version>1.2</wp:wxr_version>
  <wp:base_site_url>${xml(origin)}</wp:base_site_url>
  <wp:base_blog_url>${xml(origin)}</wp:base_blog_url>
`)
    const authors = await query<{ id: number; email: string; name: string }>(
      payload,
      'select distinct u.id, u.email, u.name from users u where exists (select 1 from articles a where a.author_id = u.id) or exists (select 1 from replies r where r.author_id = u.id) order by u.id',
    )
    const login = (id: number) => `user${id}`
    for (const a of authors) {
      await write(
        `  <wp:author><wp:author_id>${a.id}</wp:author_id><wp:author_login>${cdata(login(a.id))}</wp:author_login><wp:author_email>${cdata(a.email)}</wp:author_email><wp:author_display_name>${cdata(a.name)}</wp:author_display_name><wp:author_first_name><![CDATA[]]></wp:author_first_name><wp:author_last_name><![CDATA[]]></wp:author_last_name></wp:author>\n`,
      )
    }
    const categories = await query<{ id: number; name: string; slug: string; description: string | null }>(payload, 'select id, name, slug, description from categories order by id')
    for (const c of categories) {
      await write(
        `  <wp:category><wp:term_id>${c.id}</wp:term_id><wp:category_nicename>${cdata(c.slug)}</wp:category_nicename><wp:category_parent><![CDATA[]]></wp:category_parent><wp:cat_name>${cdata(c.name)}</wp:cat_name><wp:category_description>${cdata(c.description ?? '')}</wp:category_description></wp:category>\n`,
      )
    }
    const tags = await query<{ id: number; name: string; slug: string }>(payload, 'select id, name, slug from tags order by id')
    for (const t of tags) await write(`  <wp:tag><wp:term_id>${t.id}</wp:term_id><wp:tag_slug>${cdata(t.slug)}</wp:tag_slug><wp:tag_name>${cdata(t.name)}</wp:tag_name></wp:tag>\n`)
    const categoryById = new Map(categories.map((c) => [c.id, c]))
    const tagById = new Map(tags.map((t) => [t.id, t]))

    const [{ total }] = await query<{ total: number }>(payload, 'select count(*)::int as total from articles')
    let done = 0
    let lastId = 0
    for (;;) {
      const rows = await query<{
        id: number; title: string; slug: string; html: string | null; excerpt: string | null; status: string; published_at: Date | null; created_at: Date; updated_at: Date; author_id: number | null; category_id: number | null
      }>(payload, 'select id, title, slug, html, excerpt, status, published_at, created_at, updated_at, author_id, category_id from articles where id > $1 order by id limit 200', [lastId])
      if (!rows.length) break
      lastId = rows[rows.length - 1]!.id
      const ids = rows.map((r) => r.id)
      const tagRows = await query<{ parent_id: number; tags_id: number }>(payload, `select parent_id, tags_id from articles_rels where path = 'tags' and parent_id = any($1::int[]) order by "order"`, [ids])
      const replyRows = await query<{ id: number; article_id: number; author_id: number | null; parent_id: number | null; html: string | null; body: string; created_at: Date; author_name: string | null; author_email: string | null; status: string }>(
        payload,
        `select ${hasStatus ? 'r.status::text' : `'published'`} as status, r.id, r.article_id, r.author_id, r.parent_id, r.html, r.body, r.created_at, coalesce(u.name, ${payload.collections.replies?.config.fields.some((f) => 'name' in f && f.name === 'guestName') ? 'r.guest_name' : 'null'}) as author_name, u.email as author_email
           from replies r left join users u on u.id = r.author_id where r.article_id = any($1::int[]) order by r.id`,
        [ids],
      )
      for (const a of rows) {
        const now = Date.now()
        const status = a.status !== 'published' ? 'draft' : a.published_at && a.published_at.getTime() > now ? 'future' : 'publish'
        const category = a.category_id ? categoryById.get(a.category_id) : undefined
        const terms = [
          ...(category ? [`<category domain="category" nicename="${xml(category.slug)}">${cdata(category.name)}</category>`] : []),
          ...tagRows.filter((t) => t.parent_id === a.id).map((t) => tagById.get(t.tags_id)).filter((t) => !!t).map((t) => `<category domain="post_tag" nicename="${xml(t!.slug)}">${cdata(t!.name)}</category>`),
        ]
        const comments = replyRows
          .filter((r) => r.article_id === a.id)
          .map(
            (r) =>
              `    <wp:comment><wp:comment_id>${r.id}</wp:comment_id><wp:comment_author>${cdata(r.author_name ?? 'Anonymous')}</wp:comment_author><wp:comment_author_email>${cdata(r.author_email ?? '')}</wp:comment_author_email><wp:comment_author_url></wp:comment_author_url><wp:comment_date>${wpDate(r.created_at)}</wp:comment_date><wp:comment_date_gmt>${wpDate(r.created_at)}</wp:comment_date_gmt><wp:comment_content>${cdata(absolute(r.html ?? xml(r.body)))}</wp:comment_content><wp:comment_approved>${APPROVED[r.status] ?? '0'}</wp:comment_approved><wp:comment_type>comment</wp:comment_type><wp:comment_parent>${r.parent_id ?? 0}</wp:comment_parent><wp:comment_user_id>${r.author_id ?? 0}</wp:comment_user_id></wp:comment>`,
          )
        const link = `${origin}/articles/${a.id}/${a.slug}`
        await write(`  <item>
    <title>${cdata(a.title)}</title>
    <link>${xml(link)}</link>
    <pubDate>${a.published_at ? a.published_at.toUTCString() : ''}</pubDate>
    <dc:creator>${cdata(a.author_id ? login(a.author_id) : '')}</dc:creator>
    <guid isPermaLink="false">${xml(`${origin}/?p=${a.id}`)}</guid>
    <description></description>
    <content:encoded>${cdata(absolute(a.html ?? ''))}</content:encoded>
    <excerpt:encoded>${cdata(a.excerpt ?? '')}</excerpt:encoded>
    <wp:post_id>${a.id}</wp:post_id>
    <wp:post_date>${cdata(wpDate(a.published_at ?? a.created_at))}</wp:post_date>
    <wp:post_date_gmt>${cdata(a.published_at ? wpDate(a.published_at) : '0000-00-00 00:00:00')}</wp:post_date_gmt>
    <wp:post_modified>${cdata(wpDate(a.updated_at))}</wp:post_modified>
    <wp:post_modified_gmt>${cdata(wpDate(a.updated_at))}</wp:post_modified_gmt>
    <wp:comment_status>open</wp:comment_status>
    <wp:ping_status>closed</wp:ping_status>
    <wp:post_name>${cdata(a.slug)}</wp:post_name>
    <wp:status>${cdata(status)}</wp:status>
    <wp:post_parent>0</wp:post_parent>
    <wp:menu_order>0</wp:menu_order>
    <wp:post_type>post</wp:post_type>
    <wp:post_password></wp:post_password>
    <wp:is_sticky>0</wp:is_sticky>
    ${terms.join('\n    ')}
${comments.join('\n')}
  </item>
`)
        done++
      }
      io.progress(done, total)
    }
    await write('</channel>\n</rss>\n')
    out.end()
    await closed
    return `exported ${done} articles, ${categories.length} categories, ${tags.length} tags and ${authors.length} authors to ${file}`
  } catch (error) {
    out.destroy()
    throw error
  }
}
