/** Deterministic demo content: the same seed gives the same blog every time. */

export const CATEGORIES = [
  { name: 'Engineering', description: 'Building software that lasts.' },
  { name: 'Databases', description: 'PostgreSQL, indexes and the queries that need them.' },
  { name: 'Frontend', description: 'The web as readers see it.' },
  { name: 'DevOps', description: 'Shipping, running and watching.' },
  { name: '随笔', description: 'Notes and essays in Chinese.' },
  { name: 'Announcements', description: 'News from the Inkwell team.' },
]

export const TAGS = [
  'typescript', 'postgresql', 'performance', 'testing', 'security', 'astro', 'payload',
  'redis', 'queues', 'css', 'accessibility', 'rust', 'python', 'go', 'career',
]

export const LINKS = [
  { title: 'Payload CMS', url: 'https://payloadcms.com', description: 'The headless CMS behind the admin.' },
  { title: 'Astro', url: 'https://astro.build', description: 'The web framework behind the reader site.' },
  { title: 'PostgreSQL', url: 'https://www.postgresql.org', description: 'The database.' },
  { title: 'MDN Web Docs', url: 'https://developer.mozilla.org', description: 'The web platform reference.' },
  { title: 'Ghost', url: 'https://ghost.org', description: 'Another fine publishing platform.' },
]

const TITLES = [
  'Designing a schema you will not regret',
  'Indexes: when they help and when they hurt',
  'A gentle introduction to TypeScript generics',
  'Why your queue needs a dead-letter table',
  'CSS grid layouts for long-form reading',
  'Testing against real services, not mocks',
  'Reading an EXPLAIN ANALYZE plan',
  'Caching without lying to your readers',
  'The case for server-rendered pages',
  'Accessible forms, one label at a time',
  'Rust ownership for JavaScript developers',
  'Writing idempotent background jobs',
  'Zero-downtime migrations in PostgreSQL',
  'Rate limiting that users never notice',
  'A tour of HTTP caching headers',
  'From callbacks to async iterators',
  'Structured logging you can search',
  'Feature flags without a vendor',
  'Go concurrency patterns worth knowing',
  'Python type hints in practice',
  'Shipping a sitemap for a large site',
  'Content security policy, demystified',
  'What makes a good code review',
  'Redis as a counter, not a database',
  'Pagination: offsets, cursors and keysets',
  'Profiling a slow Node.js service',
  'Small pull requests, fast feedback',
  'Observability for a two-person team',
  'Inkwell 1.0 is here',
  'How we run Inkwell on one server',
  '深入理解 PostgreSQL 索引',
  '用 TypeScript 构建一个博客',
  '异步编程入门：从回调到 async/await',
  '缓存策略与实践',
  '写给新手的 Git 工作流',
  'Markdown 写作技巧',
  'Sorting out time zones once and for all',
  'Building a search box with PostgreSQL full-text search',
  'Securing uploads: sniff, resize, serve safely',
  'Notes on writing a technical blog',
]

const CODE_SAMPLES: { lang: string; code: string }[] = [
  { lang: 'ts', code: "type Page<T> = { docs: T[]; page: number }\n\nexport function first<T>(page: Page<T>): T | undefined {\n  return page.docs[0]\n}" },
  { lang: 'sql', code: "create index concurrently articles_published_idx\n  on articles (published_at desc)\n  where status = 'published';" },
  { lang: 'python', code: "def fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a" },
  { lang: 'go', code: "func worker(jobs <-chan int, results chan<- int) {\n\tfor j := range jobs {\n\t\tresults <- j * 2\n\t}\n}" },
  { lang: 'rust', code: "fn longest<'a>(x: &'a str, y: &'a str) -> &'a str {\n    if x.len() > y.len() { x } else { y }\n}" },
  { lang: 'bash', code: "curl -s -X POST \"$BASE_URL/api/users/login\" \\\n  -H 'Content-Type: application/json' \\\n  -d '{\"email\":\"owner@inkwell.test\",\"password\":\"…\"}'" },
]

const PARAGRAPHS = [
  'Most problems in software are not hard because of the algorithm; they are hard because of the edges. Inputs arrive late, twice, or not at all, and the code has to stay calm.',
  'The trick is to make the common path obvious and the rare path safe. When the rare path is safe, you can ship the common one with confidence.',
  'We measured before we changed anything. The numbers told a different story than our intuition did, which is exactly why we measure.',
  'A good default is worth more than a page of documentation. People read defaults; they skim manuals.',
  'There is a version of this that takes a week and a version that takes an afternoon. The afternoon version is usually the one that survives.',
  '好的工程实践往往来自对细节的坚持：清晰的命名、可靠的测试，以及对用户体验的尊重。',
]

export type DemoArticle = {
  title: string
  format: 'markdown' | 'html'
  markdown?: string
  paragraphs: string[]
  categoryIndex: number
  tagIndexes: number[]
  authorIndex: number
  daysAgo: number
  withImage: boolean
  /** The title list wraps around for large counts (benchmarks); repeats get a numbered slug. */
  repeat: boolean
}

/** A tiny seeded PRNG (mulberry32), so the demo is reproducible. */
export function rng(seed: number) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function demoArticles(count = 40): DemoArticle[] {
  const random = rng(42)
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!
  return Array.from({ length: count }, (_, i) => {
    const title = TITLES[i % TITLES.length]!
    const chinese = /[\u4e00-\u9fff]/.test(title)
    const format: 'markdown' | 'html' = i % 13 === 5 ? 'html' : 'markdown'
    const code = CODE_SAMPLES[i % CODE_SAMPLES.length]!
    const second = CODE_SAMPLES[(i + 2) % CODE_SAMPLES.length]!
    const paragraphs = [pick(PARAGRAPHS), pick(PARAGRAPHS), pick(PARAGRAPHS)]
    const markdown = [
      paragraphs[0],
      '## Why it matters',
      paragraphs[1],
      '- Start with the data model\n- Keep access rules beside what they guard\n- Measure, then optimise',
      '1. Write the test\n2. Watch it fail\n3. Make it pass',
      `> ${paragraphs[2]}`,
      '## In code',
      '```' + code.lang + '\n' + code.code + '\n```',
      'And the same idea elsewhere:',
      '```' + second.lang + '\n' + second.code + '\n```',
      '## Further reading',
      'See the [PostgreSQL documentation](https://www.postgresql.org/docs/) and [MDN](https://developer.mozilla.org/) for details, or the `EXPLAIN` command.',
      '| Step | Cost |\n| --- | --- |\n| Plan | low |\n| Execute | it depends |',
    ].join('\n\n')
    return {
      title,
      format,
      markdown: format === 'markdown' ? markdown : undefined,
      paragraphs,
      categoryIndex: chinese ? 4 : i % CATEGORIES.length === 4 ? 0 : i % CATEGORIES.length,
      tagIndexes: [i % TAGS.length, (i * 7 + 3) % TAGS.length, (i * 11 + 5) % TAGS.length].filter(
        (v, idx, all) => all.indexOf(v) === idx,
      ),
      authorIndex: i % 3,
      daysAgo: count - i,
      withImage: i % 4 === 0,
      repeat: i >= TITLES.length,
    }
  })
}

export const REPLY_TEXTS = [
  'Great write-up, thanks!',
  'This saved me an afternoon. The part about indexes was exactly what I needed.',
  'Could you expand on the failure cases? I have seen this break under load.',
  'I disagree a little: measuring first is right, but sometimes the design is obviously wrong.',
  '写得很好，受益匪浅。',
  'Bookmarked. The code sample in Go is neat.',
  'How does this interact with read replicas?',
]

/** Lexical JSON for the HTML-format demo articles. */
export function lexicalDocument(heading: string, paragraphs: string[]) {
  const text = (t: string) => ({ type: 'text', text: t, format: 0, detail: 0, mode: 'normal', style: '', version: 1 })
  const block = { format: '', indent: 0, version: 1, direction: 'ltr' as const }
  return {
    root: {
      type: 'root',
      ...block,
      children: [
        { type: 'paragraph', ...block, textFormat: 0, textStyle: '', children: [text(paragraphs[0] ?? '')] },
        { type: 'heading', tag: 'h2', ...block, children: [text(heading)] },
        { type: 'paragraph', ...block, textFormat: 0, textStyle: '', children: [text(paragraphs[1] ?? '')] },
        {
          type: 'list',
          listType: 'bullet',
          tag: 'ul',
          start: 1,
          ...block,
          children: ['Rich text written in the admin', 'Converted to HTML at save time', 'Sanitized like everything else'].map(
            (item, i) => ({ type: 'listitem', value: i + 1, ...block, children: [text(item)] }),
          ),
        },
        { type: 'quote', ...block, children: [text(paragraphs[2] ?? '')] },
      ],
    },
  }
}

/** The demo site's default meta description and keywords (Site settings → Default meta). */
export const SITE_META = {
  description: 'Inkwell: articles on software engineering, PostgreSQL, TypeScript and running a small blog, in English and Chinese.',
  keywords: 'software engineering, programming, PostgreSQL, TypeScript, web development, blogging',
}
