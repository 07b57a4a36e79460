/**
 * The bulk path of imported articles (src/plugins/import/bulkArticles.ts) leaves
 * the same rows as the Local API path, where every hook runs: the same export is
 * imported both ways into the same database (emptied in between), and the
 * articles, their tag relations, their version rows and theirs, their search
 * rows and their redirects are compared, article by article (by old id, since
 * new ids differ). Then that the bulk path is the one a batch takes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { query } from '../../src/lib/pool'
import { bulkSettings, insertArticlesInBulk, type ArticleData } from '../../src/plugins/import/bulkArticles'
import { ImportReport } from '../../src/plugins/import/report'
import { context, LegacyMap } from '../../src/plugins/import/store'
import { importWordPress } from '../../src/plugins/import/wordpress'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { author, category, channelHead, channelTail, item, tag } from '../helpers/wxrFixture'

let t: TestPayload
const site = 'https://old.example'
const file = path.join(mkdtempSync(path.join(tmpdir(), 'inkwell-bulk-')), 'export.xml')

const code = '<!-- wp:code --><pre class="wp-block-code"><code class="language-js">const answer = 42</code></pre><!-- /wp:code -->'
writeFileSync(
  file,
  [
    channelHead(site),
    author(1, 'alice', 'alice@old.example', 'Alice'),
    category(5, 'news', 'News'),
    tag(7, 'wp', 'WordPress'),
    tag(8, 'blocks', 'Blocks'),
    item(site, {
      id: 11, title: 'First post', slug: 'first-post', creator: 'alice', categories: ['news'], tags: ['wp', 'blocks'], excerpt: 'Its own excerpt.',
      meta: { _yoast_wpseo_title: 'SEO title', _yoast_wpseo_metadesc: 'SEO description' }, content: `<p>Hello <strong>bulk</strong>.</p>${code}`,
      comments: [{ id: 1, content: 'Nice' }, { id: 2, parent: 1, content: 'Thanks' }],
    }),
    item(site, { id: 12, title: 'Second post', slug: '', status: 'draft', date: '2020-02-01 09:00:00', modified: '2020-02-03 09:00:00', tags: ['blocks'], content: '<p>A draft, its excerpt made from here.</p>' }),
    item(site, { id: 13, title: 'Second post', slug: '', content: '<p>Same title: the next free slug.</p>' }),
    item(site, { id: 14, title: 'Coming soon', slug: 'coming-soon', status: 'future', date: '2099-05-01 09:00:00', content: '<p>Later.</p>' }),
    item(site, { id: 15, type: 'page', title: 'About me', slug: 'about', content: '<p>A page.</p>' }),
    item(site, { id: 16, title: '你好世界', slug: '', content: '<p>这是中文。</p>' }),
    // A slug another article of the same batch holds: the Local API path makes one from the title.
    item(site, { id: 17, title: 'Taken slug', slug: 'first-post', content: '<p>Taken.</p>' }),
    channelTail,
  ].join(''),
)

type Snapshot = Record<string, unknown>

/** Every row the articles left, keyed by their old ids; new ids (and the version rows' own save times) left out. */
async function snapshot(): Promise<Snapshot> {
  const legacy = new Map((await query<{ legacy_id: string; target_id: number }>(t.payload, `select legacy_id, target_id from import_sources where kind = 'article'`)).map((r) => [r.target_id, r.legacy_id]))
  const of = (id: number) => legacy.get(id) ?? `unknown ${id}`
  const out: Snapshot = {}
  for (const row of await query(t.payload, 'select * from articles order by id')) {
    const { id, ...rest } = row
    const rels = await query(t.payload, 'select "order", path, tags_id from articles_rels where parent_id = $1 order by "order", path', [id])
    const versions = []
    for (const version of await query(t.payload, 'select * from _articles_v where parent_id = $1 order by id', [id])) {
      const { id: versionId, parent_id: _parent, created_at: _created, updated_at: _updated, ...fields } = version
      versions.push({ ...fields, rels: await query(t.payload, 'select "order", path, tags_id from _articles_v_rels where parent_id = $1 order by "order", path', [versionId]) })
    }
    const search = await query(t.payload, 'select status, published_at, vector::text as vector from article_search where article_id = $1', [id])
    const former = await query(t.payload, 'select slug from articles_former_slugs where _parent_id = $1', [id])
    out[of(id as number)] = { ...rest, rels, versions, search, former }
  }
  const redirects = await query<{ from: string; to_url: string }>(t.payload, 'select "from", to_type, to_url from redirects order by "from"')
  out.redirects = redirects.map((r) => ({ ...r, to_url: r.to_url.replace(/^\/articles\/(\d+)\//, (_m, id: string) => `/articles/<${of(Number(id))}>/`) }))
  return out
}

async function importAs(throughHooks: boolean) {
  return importWordPress(t.payload, { file, dryRun: false, pagesCategory: 'Pages', io: { log: () => {}, progress: () => {} }, articlesThroughHooks: throughHooks })
}

beforeAll(async () => {
  t = await createTestPayload()
}, 120_000)

afterAll(async () => {
  await t?.destroy()
})

describe('bulk-imported articles', () => {
  it('leave the same rows as articles created through the Local API', async () => {
    const hooked = await importAs(true)
    const viaHooks = await snapshot()
    await query(t.payload, 'truncate articles, articles_rels, _articles_v, _articles_v_rels, article_search, replies, redirects, import_sources, import_reports restart identity cascade')
    const bulk = await importAs(false)
    const viaBulk = await snapshot()

    // Authors and terms stayed (found again by e-mail and name): the articles' lines must be the same.
    const articleLines = (r: typeof bulk) => r.lines().filter((l) => /^\s+(articles|pages|replies|redirects)\s/.test(l) || / (articles|pages) \d/.test(l))
    expect(articleLines(bulk)).toEqual(articleLines(hooked))
    expect(Object.keys(viaBulk).sort()).toEqual(['11', '12', '13', '14', '15', '16', '17', 'redirects'])
    for (const key of Object.keys(viaHooks)) expect({ [key]: viaBulk[key] }).toEqual({ [key]: viaHooks[key] })

    // What the hooks decided, present in both.
    const article = (key: string) => viaBulk[key] as Record<string, any>
    expect(article('11')).toMatchObject({ slug: 'first-post', slug_origin: 'editor', excerpt: 'Its own excerpt.', meta_title: 'SEO title', _status: 'published', reply_count: '2' })
    expect(article('11').html).toContain('shiki')
    expect(article('12')).toMatchObject({ slug: 'second-post', slug_origin: 'automatic', status: 'draft', _status: 'draft', excerpt: 'A draft, its excerpt made from here.' })
    expect(article('12').versions).toHaveLength(1)
    expect(article('12').versions[0]).toMatchObject({ latest: true, autosave: false, version__status: 'draft' })
    // A version carries its row's dates (not the import's): no pending draft where there is none.
    expect(article('12').versions[0].version_updated_at).toEqual(article('12').updated_at)
    expect(article('12').updated_at.toISOString()).toBe('2020-02-03T09:00:00.000Z')
    expect(article('13').slug).toBe('second-post-2')
    expect(article('16')).toMatchObject({ language: 'zh-CN', slug: 'ni-hao-shi-jie' })
    expect(article('17').slug).toBe('taken-slug')
    expect(article('11').search[0].vector).toContain("'bulk'")
  }, 120_000)

  it('writes a batch by SQL, leaving to the Local API only what needs its hooks', async () => {
    const report = new ImportReport('wordpress', 'direct', false)
    const ctx = context(t.payload, report, await LegacyMap.load(t.payload, 'wordpress', 'direct'))
    const data = (title: string, extra: Partial<ArticleData> = {}): ArticleData => ({ title, format: 'markdown', markdown: `Text of ${title}.`, status: 'published', publishedAt: '2021-01-01T00:00:00.000Z', tags: [], ...extra })
    const { created, routed } = await insertArticlesInBulk(
      ctx,
      [
        { input: { legacyId: 'a', kind: 'articles', title: 'Bulk A', markdown: '', status: 'published', tagIds: [] }, data: data('Bulk A') },
        { input: { legacyId: 'b', kind: 'articles', title: 'Bulk B', markdown: '', status: 'draft', tagIds: [] }, data: data('Bulk B', { status: 'draft', publishedAt: undefined }) },
        // A control character: refused by a hook, so the Local API says so.
        { input: { legacyId: 'c', kind: 'articles', title: 'Bad', markdown: '', status: 'published', tagIds: [] }, data: data('Bad\u0001') },
      ],
      await bulkSettings(t.payload),
    )
    expect([...created.keys()]).toEqual(['a', 'b'])
    expect(routed.map((r) => r.input.legacyId)).toEqual(['c'])
    const [row] = await query<{ n: string }>(t.payload, `select count(*) as n from import_sources where site = 'direct' and kind = 'article'`)
    expect(row!.n).toBe('2')
  })
})
