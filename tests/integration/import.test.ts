/**
 * `import:wordpress` and `import:ghost` (issue 30) on WXR files the test writes: Gutenberg blocks,
 * classic HTML and shortcodes, threaded and moderated comments, a future post,
 * a page, a sticky post, SEO meta, attachments served by a local HTTP server
 * (one of them missing); then a re-import (nothing changes), a later export
 * with one new post (only it comes), a dry run, the bad files, and the old
 * links answering 301 through the reader site's own lookup.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'

import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { CommandFailure, registeredCommands, type BlogCommand } from '../../jobs/commands'
import { query } from '../../src/lib/pool'
import { installSitePayload } from '../../src/lib/sitePayload'
import { handleEndpoints } from 'payload'
import { findRedirect } from '../../frontend/src/lib/api/redirects'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { author, category, channelHead, channelTail, item, tag, type WxrItem } from '../helpers/wxrFixture'

let t: TestPayload
let images: http.Server
let site: string
const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-wxr-'))

function command(name: string): BlogCommand {
  return registeredCommands(t.payload).commands.find((c) => c.name === name)!
}

async function run(args: string[]): Promise<{ summary: string; out: string[] }> {
  const out: string[] = []
  const summary = await command('import:wordpress').run(t.payload, { log: (l) => out.push(l), progress: () => {} }, args)
  return { summary, out }
}

function items(): WxrItem[] {
  return [
    { id: 10, type: 'attachment', title: 'photo', slug: 'photo', attachmentUrl: `${site}/wp-content/uploads/2020/01/photo.png` },
    {
      id: 11,
      title: 'Gutenberg & friends',
      slug: 'gutenberg-friends',
      creator: 'alice',
      categories: ['news'],
      tags: ['wp', 'blocks'],
      sticky: true,
      excerpt: 'A short excerpt.',
      meta: { _yoast_wpseo_title: 'SEO title', _yoast_wpseo_metadesc: 'SEO description', _thumbnail_id: '10' },
      content: [
        '<!-- wp:paragraph --><p>Hello <strong>blocks</strong>.</p><!-- /wp:paragraph -->',
        '<!-- wp:heading {"level":3} --><h3>Code</h3><!-- /wp:heading -->',
        '<!-- wp:code --><pre class="wp-block-code"><code class="language-js">const answer = 42</code></pre><!-- /wp:code -->',
        '<!-- wp:table --><figure class="wp-block-table"><table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table></figure><!-- /wp:table -->',
        `<!-- wp:image {"id":10} --><figure class="wp-block-image"><img src="${site}/wp-content/uploads/2020/01/photo.png" alt="A photo"/></figure><!-- /wp:image -->`,
        `<!-- wp:image --><figure class="wp-block-image"><img src="${site}/wp-content/uploads/2020/01/missing.png" alt="Gone"/></figure><!-- /wp:image -->`,
        '<!-- wp:quote --><blockquote class="wp-block-quote"><p>Quoted</p></blockquote><!-- /wp:quote -->',
        '<!-- wp:columns --><div class="wp-block-columns"><div class="wp-block-column"><p>Left column</p></div><div class="wp-block-column"><p>Right column</p></div></div><!-- /wp:columns -->',
        '<!-- wp:buttons --><div class="wp-block-buttons"><div class="wp-block-button"><a class="wp-block-button__link" href="https://example.com/go">Go there</a></div></div><!-- /wp:buttons -->',
        '<!-- wp:separator --><hr class="wp-block-separator"/><!-- /wp:separator -->',
        '<!-- wp:embed {"url":"https://www.youtube.com/watch?v=abc","type":"video"} --><figure class="wp-block-embed"><div class="wp-block-embed__wrapper">https://www.youtube.com/watch?v=abc</div></figure><!-- /wp:embed -->',
        '<script>alert("x")</script>',
      ].join('\n'),
      comments: [
        { id: 1, content: 'First!', author: 'Guest Reader' },
        { id: 2, parent: 1, content: 'An answer', userId: 2 },
        { id: 3, parent: 2, content: 'An answer to the answer' },
        { id: 4, approved: '0', content: 'Waiting for moderation' },
        { id: 5, approved: 'spam', content: 'Buy things' },
        { id: 6, approved: 'trash', content: 'Thrown away' },
      ],
    },
    {
      id: 12,
      title: 'Classic post',
      slug: 'classic-post',
      creator: 'bob',
      categories: ['old-news'],
      content: 'First paragraph\nstill first.\n\nSecond [caption id="c1" width="300"]<img src="http://127.0.0.1:9/x.png" alt="x"> A caption[/caption]\n\n[code lang="php"]<?php echo "hi"; ?>\n\n// more[/code]\n\n[gallery ids="10"]\n\n[contact-form-7 id="3"]',
    },
    { id: 13, title: 'Coming soon', slug: 'coming-soon', status: 'future', date: '2099-05-01 09:00:00', creator: 'alice' },
    { id: 14, title: 'A draft', slug: 'a-draft', status: 'draft', creator: 'alice' },
    { id: 15, title: 'Binned', slug: 'binned', status: 'trash', creator: 'alice' },
    { id: 16, type: 'page', title: 'About me', slug: 'about', content: '<p>About this blog.</p>', creator: 'alice' },
    { id: 17, type: 'nav_menu_item', title: '', slug: '17' },
    { id: 18, title: '<script>alert(1)</script>Scripted', slug: 'scripted', creator: '<script>x</script>', content: '<img src=x onerror=alert(1)><a href="javascript:alert(1)">click</a>', excerpt: '<script>alert(2)</script>' },
  ]
}

function writeExport(name: string, extra: WxrItem[] = []): string {
  const file = path.join(dir, name)
  writeFileSync(
    file,
    channelHead(site) +
      author(1, 'alice', 'alice@old.example', 'Alice Author') +
      author(2, 'bob', 'bob@old.example', 'Bob Writer') +
      category(3, 'news', 'News') +
      category(4, 'old-news', 'Old news', 'news') +
      tag(5, 'wp', 'WordPress') +
      tag(6, 'blocks', 'Blocks') +
      [...items(), ...extra].map((i) => item(site, i)).join('') +
      channelTail,
  )
  return file
}

beforeAll(async () => {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } }).png().toBuffer()
  images = http.createServer((req, res) => {
    if (req.url === '/wp-content/uploads/2020/01/photo.png' || req.url === '/content/images/2021/05/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png' })
      return void res.end(png)
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
  site = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync', OUTBOUND_ALLOW_PRIVATE: 'true' })
  installSitePayload({ payload: t.payload, rest: (request) => handleEndpoints({ config: t.payload.config, request }) })
}, 120_000)

afterAll(async () => {
  await t?.destroy()
  await new Promise((resolve) => images?.close(resolve))
})

const articles = async () =>
  (await t.payload.find({ collection: 'articles', limit: 100, depth: 1, overrideAccess: true, sort: 'id' })).docs as unknown as Record<string, any>[]

describe('import:wordpress', () => {
  let first: { summary: string; out: string[] }

  it('a dry run reports what would come and writes nothing', async () => {
    const file = writeExport('site.xml')
    const { summary, out } = await run([file, '--dry-run', '--owner', 'alice'])
    console.log(out.join('\n'))
    expect(summary).toMatch(/^dry run: would import/)
    expect((await t.payload.count({ collection: 'articles', overrideAccess: true })).totalDocs).toBe(0)
    expect((await t.payload.count({ collection: 'users', overrideAccess: true })).totalDocs).toBe(0)
    expect(await query(t.payload, 'select 1 from import_sources')).toHaveLength(0)
  })

  it('imports posts, pages, terms, authors, threaded comments, images and SEO meta', async () => {
    first = await run([writeExport('site.xml'), '--owner', 'alice', '--pages-category', 'Pages'])
    console.log(first.out.join('\n'))
    const all = await articles()
    const byTitle = (title: string) => all.find((a) => a.title === title)!
    expect(all.map((a) => a.title).sort()).toEqual(['<script>alert(1)</script>Scripted', 'A draft', 'About me', 'Classic post', 'Coming soon', 'Gutenberg & friends'].sort())

    const g = byTitle('Gutenberg & friends')
    expect(g.slug).toBe('gutenberg-friends')
    expect(g.status).toBe('published')
    expect(g.publishedAt).toBe('2020-01-02T10:00:00.000Z')
    expect(g.excerpt).toBe('A short excerpt.')
    expect(g.category.name).toBe('News')
    expect(g.tags.map((x: { name: string }) => x.name).sort()).toEqual(['Blocks', 'WordPress'])
    expect(g.author.email).toBe('alice@old.example')
    expect(g.meta.title).toBe('SEO title')
    expect(g.meta.description).toBe('SEO description')
    expect(g.meta.image).toBeTruthy()
    // Blocks became Markdown and were rendered through the sanitizer: highlighted code, a table, the image copied.
    expect(g.markdown).toContain('```js\nconst answer = 42\n```')
    expect(g.html).toContain('<table>')
    expect(g.html).toMatch(/<pre[^>]*class="shiki/)
    expect(g.html).toContain('<h3')
    expect(g.html).toContain('<blockquote>')
    expect(g.html).toContain('Right column')
    expect(g.html).toContain('href="https://example.com/go"')
    expect(g.html).toContain('<hr')
    expect(g.html).toContain('https://www.youtube.com/watch?v=abc')
    expect(g.html).not.toContain('<script')
    expect(g.markdown).toMatch(/!\[A photo\]\(\/api\/media\/file\/photo[^)]*\.png\)/)
    expect(g.markdown).toContain(`${site}/wp-content/uploads/2020/01/missing.png`)

    const classic = byTitle('Classic post')
    expect(classic.html).toMatch(/<p>First paragraph<br>\s*still first\.<\/p>/)
    expect(classic.html).toContain('A caption')
    expect(classic.markdown).toContain('```php\n<?php echo "hi"; ?>\n\n// more\n```')
    expect(classic.markdown).toMatch(/!\[\]\(\/api\/media\/file\/photo/)
    expect(classic.author.email).toBe('bob@old.example')

    const future = byTitle('Coming soon')
    expect(future.status).toBe('published')
    expect(future.publishedAt).toBe('2099-05-01T09:00:00.000Z')
    expect(byTitle('A draft').status).toBe('draft')
    expect(byTitle('About me').category.name).toBe('Pages')

    const scripted = byTitle('<script>alert(1)</script>Scripted')
    expect(scripted.html).not.toMatch(/onerror|href="javascript:|<script/)
    expect(scripted.excerpt).not.toContain("<script")

    // Users: alice is the site owner (the site was empty), bob an author; neither has a known password.
    const users = (await t.payload.find({ collection: 'users', depth: 1, overrideAccess: true, sort: 'id' })).docs as unknown as Record<string, any>[]
    expect(users.map((u) => [u.email, u.roles.map((r: { slug: string }) => r.slug)])).toEqual([
      ['alice@old.example', ['site-owner']],
      ['bob@old.example', ['author']],
    ])

    // Comments: threaded one level deep, with their dates and names; pending, spam and trashed
    // ones keep their state as the moderation plugin's held, spam and trash (moderators see them, readers do not).
    const stored = await query<{ id: number; body: string; parent_id: number | null; guest_name: string | null; author_id: number | null; created_at: Date; html: string; status: string }>(
      t.payload,
      'select id, body, parent_id, guest_name, author_id, created_at, html, status from replies order by id',
    )
    expect(stored.map((r) => [r.body, r.status])).toEqual([
      ['First!', 'published'],
      ['Waiting for moderation', 'held'],
      ['Buy things', 'spam'],
      ['Thrown away', 'trash'],
      ['An answer', 'published'],
      ['An answer to the answer', 'published'],
    ])
    const replies = stored.filter((r) => r.status === 'published').sort((a, b) => a.id - b.id)
    const [gutenberg] = await query<{ reply_count: number }>(t.payload, `select reply_count from articles where slug = 'gutenberg-friends'`)
    expect(Number(gutenberg!.reply_count)).toBe(3)
    const visible = await t.payload.find({ collection: 'replies', overrideAccess: false, depth: 0, limit: 100 })
    expect(visible.docs.map((r) => (r as { body: string }).body).sort()).toEqual(['An answer', 'An answer to the answer', 'First!'])
    expect(replies[0]!.guest_name).toBe('Guest Reader')
    expect(replies[1]!.author_id).toBe(users[1]!.id)
    expect(replies[1]!.parent_id).toBe(replies[0]!.id)
    expect(replies[2]!.parent_id).toBe(replies[0]!.id)
    expect(replies[0]!.created_at.toISOString()).toBe('2020-01-03T10:00:00.000Z')
  })

  it('the report lists every skip and failure with its reason, and is kept', async () => {
    const text = first.out.join('\n')
    expect(text).toMatch(/skipped articles 15: in the trash/)
    expect(text).toMatch(/skipped articles 17: post type "nav_menu_item"/)
    expect(text).not.toMatch(/skipped replies [456]:/)
    expect(text).toMatch(/failed media .*missing\.png: the server answered 404/)
    expect(text).toMatch(/failed media http:\/\/127\.0\.0\.1:9\/x\.png/)
    expect(text).toMatch(/kept as sanitized HTML|removed \(not allowed in articles\): script/)
    expect(text).toMatch(/shortcodes left as text: contact-form-7/)
    expect(text).toMatch(/hierarchy was flattened/)
    expect(text).toMatch(/sticky posts \(11\)/)
    const reports = await t.payload.find({ collection: 'import-reports' as never, overrideAccess: true })
    expect(reports.docs).toHaveLength(1)
    expect((reports.docs[0] as any).report.counts.articles.imported).toBe(5)
  })

  it('counts replies on their article', async () => {
    const g = (await articles()).find((a) => a.title === 'Gutenberg & friends')!
    expect(g.replyCount).toBe(3)
  })

  it('a re-import changes nothing; a later export brings only what is new', async () => {
    const before = await query<{ n: number }>(t.payload, `select (select count(*) from articles) + (select count(*) from replies) + (select count(*) from users) + (select count(*) from media) + (select count(*) from categories) + (select count(*) from tags) + (select count(*) from redirects) as n`)
    const again = await run([writeExport('site.xml'), '--owner', 'alice'])
    expect(again.summary).toMatch(/^imported 0 items/)
    const after = await query<{ n: number }>(t.payload, `select (select count(*) from articles) + (select count(*) from replies) + (select count(*) from users) + (select count(*) from media) + (select count(*) from categories) + (select count(*) from tags) + (select count(*) from redirects) as n`)
    expect(after[0]!.n).toBe(before[0]!.n)

    const later = await run([writeExport('later.xml', [{ id: 19, title: 'Newer post', slug: 'newer', creator: 'bob', comments: [{ id: 9, content: 'New comment' }] }]), '--owner', 'alice'])
    expect(later.summary).toMatch(/^imported \d+ items/)
    const titles = (await articles()).map((a) => a.title)
    expect(titles.filter((x) => x === 'Newer post')).toHaveLength(1)
    expect(titles.filter((x) => x === 'Classic post')).toHaveLength(1)
  })

  it('posts are written a batch per transaction, and a batch with a taken slug still brings every post with its comments', async () => {
    // 30 takes the slug of an article already there: its batch cannot be written at once and goes one at a time.
    const extra: WxrItem[] = [
      { id: 30, title: 'Classic again', slug: 'classic-post', creator: 'bob', comments: [{ id: 30, content: 'On the clash' }] },
      ...Array.from({ length: 30 }, (_, i): WxrItem => ({ id: 31 + i, title: `Batch post ${i}`, slug: `batch-post-${i}`, creator: 'bob', comments: [{ id: 31 + i, content: `Comment ${i}` }, { id: 100 + i, parent: 31 + i, content: `Answer ${i}` }] })),
    ]
    const { out } = await run([writeExport('batch.xml', extra), '--owner', 'alice'])
    expect(out.join('\n')).not.toMatch(/failed (articles|replies)/)
    const rows = await query<{ title: string; slug: string; replies: number; answers: number }>(
      t.payload,
      `select a.title, a.slug, (select count(*)::int from replies r where r.article_id = a.id) as replies,
              (select count(*)::int from replies r where r.article_id = a.id and r.parent_id is not null) as answers
         from articles a where a.title like 'Batch post %' or a.title = 'Classic again' order by a.id`,
    )
    expect(rows).toHaveLength(31)
    expect(rows.filter((r) => r.title.startsWith('Batch post')).every((r) => r.replies === 2 && r.answers === 1)).toBe(true)
    const clash = rows.find((r) => r.title === 'Classic again')!
    expect(clash.slug).not.toBe('classic-post')
    expect(clash.replies).toBe(1)
    expect(out.join('\n')).toMatch(/articles 30: its slug "classic-post" could not be kept/)
    // Every one has its old id kept: a second run brings nothing.
    const again = await run([writeExport('batch.xml', extra), '--owner', 'alice'])
    expect(again.out.join('\n')).toMatch(/articles\s+0\s+\d+\s+\d+\s+0\n\s+pages\s+0\s+\d+\s+\d+\s+0\n\s+replies\s+0\s/)
  })

  it('old links: permalinks, ?p=, date paths, categories, tags and authors have redirects the site finds', async () => {
    const g = (await articles()).find((a) => a.title === 'Gutenberg & friends')!
    const to = `/articles/${g.id}/gutenberg-friends`
    expect(await findRedirect('/2020/01/02/gutenberg-friends/')).toBe(to)
    expect(await findRedirect('/2020/01/02/gutenberg-friends')).toBe(to)
    expect(await findRedirect('/?p=11')).toBe(to)
    expect(await findRedirect('/?p=11&utm_source=x')).toBe(to)
    expect(await findRedirect('/about/')).toMatch(/^\/articles\/\d+\/about$/)
    expect(await findRedirect('/?page_id=16')).toMatch(/^\/articles\/\d+\/about$/)
    expect(await findRedirect('/category/news/')).toBe('/categories/news')
    expect(await findRedirect('/tag/wp/')).toBe('/tags/wp')
    expect(await findRedirect('/author/bob/')).toMatch(/^\/users\/\d+$/)
    expect(await findRedirect('/nothing/here/')).toBeNull()
  })
})

describe('bad files get a clear error, never a crash or a hang', () => {
  const bad = (name: string, text: string) => {
    const file = path.join(dir, name)
    writeFileSync(file, text)
    return file
  }
  const fails = async (file: string, message: RegExp) => {
    const error = await run([file]).then(() => null, (e: unknown) => e)
    expect(String(error)).toMatch(message)
    // The CLI prints a CommandFailure's message alone (no stack) and exits 1.
    expect(error).toBeInstanceOf(CommandFailure)
  }

  it('refuses what is not a WordPress export', async () => {
    await fails(bad('not.xml', 'this is { not xml'), /not a readable WordPress export/)
    await fails(bad('html.xml', '<html><body>hi</body></html>'), /root element is <html>/)
    await fails(bad('rss.xml', '<?xml version="1.0"?><rss><channel><item><title>x</title></item></channel></rss>'), /no <wp:wxr_version>/)
    await fails(bad('v10.xml', channelHead('http://old.example', '1.0').replace('<wp:wxr_version>1.0', '<wp:wxr_version>1.0') + item('http://old.example', { id: 1, title: 'x', slug: 'x' }) + channelTail), /WXR version 1.0 is not supported/)
    await fails(bad('empty.xml', ''), /is empty/)
    await fails(path.join(dir, 'nowhere.xml'), /cannot read .*ENOENT/)
  })

  it('refuses a truncated file', async () => {
    const whole = channelHead('http://old.example') + item('http://old.example', { id: 1, title: 'x', slug: 'x' }) + channelTail
    await fails(bad('truncated.xml', whole.slice(0, Math.floor(whole.length * 0.7))), /not a readable WordPress export/)
  })

  it('refuses an XML bomb at once (no entity is expanded)', async () => {
    const entities = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i ? i : ''};`.repeat(10)}">`)].join('\n')
    const started = Date.now()
    await fails(bad('bomb.xml', `<?xml version="1.0"?>\n<!DOCTYPE rss [\n${entities}\n]>\n<rss><channel><title>&lol9;</title></channel></rss>`), /DOCTYPE is not allowed/)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('refuses a file over the size limit before reading it', async () => {
    const file = path.join(dir, 'huge.xml')
    execFileSync('truncate', ['-s', '2G', file]) // sparse: 2 GB on paper, nothing on disk
    await fails(file, /2048 MB, more than the 1024 MB/)
  })

  it('bad arguments are named', async () => {
    await expect(run([])).rejects.toThrow(/needs one file/)
    await expect(run(['a.xml', '--frobnicate'])).rejects.toThrow(/unknown option --frobnicate/)
  })
})

describe('import:ghost', () => {
  const ghostExport = () => ({
    db: [
      {
        meta: { exported_on: 1700000000000, version: '5.75.0' },
        data: {
          posts: [
            {
              id: 'g1',
              title: 'Ghost post',
              slug: 'ghost-post',
              type: 'post',
              status: 'published',
              featured: 1,
              html: '<p>From <em>Ghost</em>.</p><figure class="kg-card kg-image-card"><img src="__GHOST_URL__/content/images/2021/05/cover.png" class="kg-image" alt="Cover"></figure><pre><code class="language-python">print("hi")</code></pre><figure class="kg-card kg-embed-card"><iframe src="https://www.youtube.com/embed/x"></iframe></figure>',
              custom_excerpt: 'Ghostly.',
              feature_image: '__GHOST_URL__/content/images/2021/05/cover.png',
              published_at: '2021-05-06T07:08:09.000Z',
              created_at: '2021-05-01T00:00:00.000Z',
              updated_at: '2021-05-07T00:00:00.000Z',
            },
            { id: 'g2', title: 'Ghost scheduled', slug: 'ghost-scheduled', type: 'post', status: 'scheduled', html: '<p>Later.</p>', published_at: '2099-01-01T00:00:00.000Z' },
            { id: 'g3', title: 'Ghost page', slug: 'ghost-page', type: 'page', status: 'published', html: '<p>A page.</p>', published_at: '2021-01-01T00:00:00.000Z' },
            { id: 'g4', title: 'Newsletter only', slug: 'sent', type: 'post', status: 'sent', html: '<p>x</p>' },
          ],
          tags: [
            { id: 't1', name: 'Ghosts', slug: 'ghosts' },
            { id: 't2', name: '#hidden', slug: 'hash-hidden', visibility: 'internal' },
          ],
          users: [{ id: 'u1', name: 'Gina Ghost', slug: 'gina', email: 'gina@old.example' }],
          posts_tags: [
            { post_id: 'g1', tag_id: 't1', sort_order: 0 },
            { post_id: 'g1', tag_id: 't2', sort_order: 1 },
          ],
          posts_authors: [{ post_id: 'g1', author_id: 'u1', sort_order: 0 }],
          posts_meta: [{ post_id: 'g1', meta_title: 'Ghost SEO', meta_description: 'Ghost description' }],
        },
      },
    ],
  })

  const ghost = async (args: string[]) => {
    const out: string[] = []
    const summary = await command('import:ghost').run(t.payload, { log: (l) => out.push(l), progress: () => {} }, args)
    return { summary, out }
  }

  it('imports posts, pages, tags, authors, images and meta; again, nothing changes', async () => {
    const file = path.join(dir, 'ghost.json')
    writeFileSync(file, JSON.stringify(ghostExport()))
    const { out } = await ghost([file, '--url', site])
    console.log(out.join('\n'))
    const all = await articles()
    const post = all.find((a) => a.title === 'Ghost post')!
    expect(post.author.email).toBe('gina@old.example')
    expect(post.category.name).toBe('Ghosts')
    expect(post.tags.map((x: { name: string }) => x.name)).toEqual(['Ghosts'])
    expect(post.publishedAt).toBe('2021-05-06T07:08:09.000Z')
    expect(post.excerpt).toBe('Ghostly.')
    expect(post.meta.title).toBe('Ghost SEO')
    expect(post.meta.image).toBeTruthy()
    expect(post.markdown).toMatch(/!\[Cover\]\(\/api\/media\/file\/cover[^)]*\.png\)/)
    expect(post.html).toMatch(/<pre[^>]*class="shiki/)
    const scheduled = all.find((a) => a.title === 'Ghost scheduled')!
    expect([scheduled.status, scheduled.publishedAt]).toEqual(['published', '2099-01-01T00:00:00.000Z'])
    expect(all.find((a) => a.title === 'Ghost page')!.category.name).toBe('Pages')
    expect(all.some((a) => a.title === 'Newsletter only')).toBe(false)
    const text = out.join('\n')
    expect(text).toMatch(/skipped tags hash-hidden: an internal tag/)
    expect(text).toMatch(/skipped articles g4: unknown status "sent"/)
    expect(text).toMatch(/featured posts \(ghost-post\)/)
    expect(await findRedirect('/ghost-post/')).toBe(`/articles/${post.id}/ghost-post`)
    expect(await findRedirect('/tag/ghosts/')).toBe('/tags/ghosts')

    const again = await ghost([file, '--url', site])
    expect(again.summary).toMatch(/^imported 0 items/)
  })

  it('refuses what is not a Ghost export', async () => {
    const file = path.join(dir, 'not-ghost.json')
    writeFileSync(file, '{"posts": []}')
    await expect(ghost([file])).rejects.toThrow(/not a Ghost export/)
    writeFileSync(file, '{"db": [')
    await expect(ghost([file])).rejects.toThrow(/not a readable Ghost export/)
    writeFileSync(file, JSON.stringify({ db: [{ meta: { version: '2.0.0' }, data: { posts: [] } }] }))
    await expect(ghost([file])).rejects.toThrow(/Ghost 2.0.0 exports are not supported/)
  })
})

describe('export:wordpress', () => {
  it('round trip: export → import into an empty site gives the same articles, dates, terms, authors and reply threads', async () => {
    const file = path.join(dir, 'export.xml')
    const out: string[] = []
    const summary = await command('export:wordpress').run(t.payload, { log: (l) => out.push(l), progress: () => {} }, [file])
    expect(summary).toMatch(/^exported \d+ articles/)
    // A config of its own: one from the app's payload.config module would share the first instance's database.
    const empty = await createTestPayload({ QUEUE_CONNECTION: 'sync', OUTBOUND_ALLOW_PRIVATE: 'true' }, { plugins: (compose, env) => compose(env) })
    try {
      const imported: string[] = []
      const cmd = registeredCommands(empty.payload).commands.find((c) => c.name === 'import:wordpress')!
      await cmd.run(empty.payload, { log: (l) => imported.push(l), progress: () => {} }, [file, '--no-media'])
      const shape = async (p: TestPayload['payload']) => {
        const docs = (await p.find({ collection: 'articles', limit: 100, depth: 1, overrideAccess: true, sort: 'title' })).docs as unknown as Record<string, any>[]
        const replies = await query<{ article: string; body: string; parent: string | null; who: string | null }>(
          p,
          `select a.title as article, r.body, pr.body as parent, coalesce(u.email, r.guest_name) as who
             from replies r join articles a on a.id = r.article_id left join replies pr on pr.id = r.parent_id left join users u on u.id = r.author_id
            order by a.title, r.created_at, r.body`,
        )
        return {
          articles: docs.map((a) => ({
            title: a.title,
            slug: a.slug,
            status: a.status,
            publishedAt: a.publishedAt ?? null,
            category: a.category?.name ?? null,
            tags: (a.tags ?? []).map((x: { name: string }) => x.name).sort(),
            author: a.author?.email ?? null,
          })),
          replies,
        }
      }
      const [before, after] = [await shape(t.payload), await shape(empty.payload)]
      expect(after.articles).toEqual(before.articles)
      expect(after.replies).toEqual(before.replies)
      expect(before.replies.length).toBeGreaterThan(2)
    } finally {
      await empty.destroy()
    }
  }, 120_000)
})
