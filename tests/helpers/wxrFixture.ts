/**
 * WordPress exports (WXR 1.2) written by the tests themselves: a small site
 * with everything the importer must handle (Gutenberg blocks, classic HTML,
 * shortcodes, threaded and moderated comments, a future post, a page,
 * attachments served by a local HTTP server), and a generator of big ones.
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

const cdata = (text: string) => `<![CDATA[${text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`

export type WxrComment = { id: number; parent?: number; approved?: '1' | '0' | 'spam' | 'trash'; author?: string; userId?: number; content: string; date?: string; type?: string }
export type WxrItem = {
  id: number
  type?: 'post' | 'page' | 'attachment' | 'nav_menu_item'
  title: string
  slug: string
  status?: string
  date?: string
  modified?: string
  creator?: string
  content?: string
  excerpt?: string
  categories?: string[]
  tags?: string[]
  sticky?: boolean
  meta?: Record<string, string>
  attachmentUrl?: string
  comments?: WxrComment[]
}

export function channelHead(site: string, version = '1.2'): string {
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/${version}/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/${version}/">
<channel>
  <title>Old blog</title>
  <link>${site}</link>
  <language>en-US</language>
  <wp:wxr_version>${version}</wp:wxr_version>
  <wp:base_site_url>${site}</wp:base_site_url>
  <wp:base_blog_url>${site}</wp:base_blog_url>
`
}

export const author = (id: number, login: string, email: string, name: string) =>
  `<wp:author><wp:author_id>${id}</wp:author_id><wp:author_login>${cdata(login)}</wp:author_login><wp:author_email>${cdata(email)}</wp:author_email><wp:author_display_name>${cdata(name)}</wp:author_display_name><wp:author_first_name><![CDATA[]]></wp:author_first_name><wp:author_last_name><![CDATA[]]></wp:author_last_name></wp:author>\n`

export const category = (id: number, slug: string, name: string, parent = '') =>
  `<wp:category><wp:term_id>${id}</wp:term_id><wp:category_nicename>${cdata(slug)}</wp:category_nicename><wp:category_parent>${cdata(parent)}</wp:category_parent><wp:cat_name>${cdata(name)}</wp:cat_name></wp:category>\n`

export const tag = (id: number, slug: string, name: string) =>
  `<wp:tag><wp:term_id>${id}</wp:term_id><wp:tag_slug>${cdata(slug)}</wp:tag_slug><wp:tag_name>${cdata(name)}</wp:tag_name></wp:tag>\n`

export function item(site: string, i: WxrItem): string {
  const date = i.date ?? '2020-01-02 10:00:00'
  const type = i.type ?? 'post'
  const link = type === 'page' ? `${site}/${i.slug}/` : `${site}/${date.slice(0, 4)}/${date.slice(5, 7)}/${date.slice(8, 10)}/${i.slug}/`
  const comments = (i.comments ?? [])
    .map(
      (c) => `<wp:comment><wp:comment_id>${c.id}</wp:comment_id><wp:comment_author>${cdata(c.author ?? 'A reader')}</wp:comment_author><wp:comment_author_email>${cdata('reader@example.com')}</wp:comment_author_email><wp:comment_date>${c.date ?? '2020-01-03 10:00:00'}</wp:comment_date><wp:comment_date_gmt>${c.date ?? '2020-01-03 10:00:00'}</wp:comment_date_gmt><wp:comment_content>${cdata(c.content)}</wp:comment_content><wp:comment_approved>${cdata(c.approved ?? '1')}</wp:comment_approved><wp:comment_type>${cdata(c.type ?? 'comment')}</wp:comment_type><wp:comment_parent>${c.parent ?? 0}</wp:comment_parent><wp:comment_user_id>${c.userId ?? 0}</wp:comment_user_id></wp:comment>`,
    )
    .join('\n')
  const terms = [
    ...(i.categories ?? []).map((s) => `<category domain="category" nicename="${s}">${cdata(s)}</category>`),
    ...(i.tags ?? []).map((s) => `<category domain="post_tag" nicename="${s}">${cdata(s)}</category>`),
  ].join('')
  const meta = Object.entries(i.meta ?? {})
    .map(([k, v]) => `<wp:postmeta><wp:meta_key>${cdata(k)}</wp:meta_key><wp:meta_value>${cdata(v)}</wp:meta_value></wp:postmeta>`)
    .join('')
  return `<item>
  <title>${cdata(i.title)}</title>
  <link>${link}</link>
  <dc:creator>${cdata(i.creator ?? 'admin')}</dc:creator>
  <guid isPermaLink="false">${site}/?${type === 'page' ? 'page_id' : 'p'}=${i.id}</guid>
  <content:encoded>${cdata(i.content ?? '')}</content:encoded>
  <excerpt:encoded>${cdata(i.excerpt ?? '')}</excerpt:encoded>
  <wp:post_id>${i.id}</wp:post_id>
  <wp:post_date>${cdata(date)}</wp:post_date>
  <wp:post_date_gmt>${cdata(date)}</wp:post_date_gmt>
  <wp:post_modified>${cdata(i.modified ?? date)}</wp:post_modified>
  <wp:post_modified_gmt>${cdata(i.modified ?? date)}</wp:post_modified_gmt>
  <wp:post_name>${cdata(i.slug)}</wp:post_name>
  <wp:status>${cdata(i.status ?? (type === 'attachment' ? 'inherit' : 'publish'))}</wp:status>
  <wp:post_parent>0</wp:post_parent>
  <wp:post_type>${cdata(type)}</wp:post_type>
  <wp:is_sticky>${i.sticky ? 1 : 0}</wp:is_sticky>
  ${i.attachmentUrl ? `<wp:attachment_url>${cdata(i.attachmentUrl)}</wp:attachment_url>` : ''}
  ${terms}
  ${meta}
  ${comments}
</item>
`
}

export const channelTail = '</channel>\n</rss>\n'

/** A generated export of `posts` posts with `commentsPerPost` comments each (a third of them answers), streamed to `file`. */
export async function writeBigWxr(file: string, site: string, posts: number, commentsPerPost: number): Promise<void> {
  const out = createWriteStream(file)
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  await write(channelHead(site))
  await write(author(1, 'admin', 'admin@old.example', 'Admin'))
  for (let c = 0; c < 20; c++) await write(category(100 + c, `topic-${c}`, `Topic ${c}`))
  for (let t = 0; t < 50; t++) await write(tag(200 + t, `tag-${t}`, `Tag ${t}`))
  let commentId = 1
  for (let p = 1; p <= posts; p++) {
    const comments: WxrComment[] = []
    for (let k = 0; k < commentsPerPost; k++) {
      const id = commentId++
      comments.push({ id, parent: k % 3 === 2 ? id - 1 : undefined, content: `<p>Comment ${id} on post ${p}, with <em>some</em> words.</p>` })
    }
    const day = String((p % 28) + 1).padStart(2, '0')
    await write(
      item(site, {
        id: p,
        title: `Post number ${p}`,
        slug: `post-number-${p}`,
        date: `2019-03-${day} 08:00:00`,
        categories: [`topic-${p % 20}`],
        tags: [`tag-${p % 50}`, `tag-${(p * 7) % 50}`],
        content: `<!-- wp:paragraph --><p>Paragraph one of post ${p}, <strong>bold</strong> and <a href="https://example.com/${p}">a link</a>.</p><!-- /wp:paragraph -->\n<!-- wp:heading --><h2>A heading</h2><!-- /wp:heading -->\n<!-- wp:code --><pre class="wp-block-code"><code>const n = ${p}</code></pre><!-- /wp:code -->\n<!-- wp:list --><ul><li>one</li><li>two</li></ul><!-- /wp:list -->`,
        comments,
      }),
    )
  }
  await write(channelTail)
  out.end()
  await once(out, 'finish')
}

/**
 * A small export as one string, for an upload: two authors, a category, a
 * tag, two posts (one with a threaded comment) and a page. No images, so it
 * imports without a server to fetch them from.
 */
export function smallWxr(site = 'https://old.example'): string {
  return [
    channelHead(site),
    author(1, 'alice', 'alice@old.example', 'Alice'),
    author(2, 'bob', 'bob@old.example', 'Bob'),
    category(3, 'news', 'News'),
    tag(4, 'wp', 'WordPress'),
    item(site, {
      id: 11,
      title: 'Hello from WordPress',
      slug: 'hello-from-wordpress',
      creator: 'alice',
      categories: ['news'],
      tags: ['wp'],
      content: '<!-- wp:paragraph --><p>Moved <strong>in</strong>.</p><!-- /wp:paragraph -->',
      comments: [
        { id: 1, content: 'Welcome!', author: 'Guest' },
        { id: 2, parent: 1, content: 'Thanks', userId: 2 },
      ],
    }),
    item(site, { id: 12, title: 'Second post', slug: 'second-post', creator: 'bob', content: '<p>Classic HTML.</p>', date: '2020-02-03 09:00:00' }),
    item(site, { id: 13, type: 'page', title: 'About', slug: 'about', creator: 'alice', content: '<p>About this blog.</p>' }),
    channelTail,
  ].join('')
}
