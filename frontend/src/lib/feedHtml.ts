/**
 * An article's stored HTML as feeds carry it. The page keeps shiki's
 * highlighting, but feed readers strip `style` attributes (the W3C validator
 * warns about every one), so highlighted code would arrive uncoloured and
 * sometimes mangled: in feeds each code block is the plain
 * `<pre><code class="language-…">` that readers style themselves, and no
 * element keeps a `style`. Links and images become absolute, because feed
 * readers resolve relative URLs against the feed, not the article.
 *
 * The stored HTML was sanitized at save time; this only removes and rewrites,
 * it never lets anything new through.
 */
import { defaultTreeAdapter, html as htmlSpec, parseFragment, serialize, type DefaultTreeAdapterMap } from 'parse5'

type Element = DefaultTreeAdapterMap['element']
type ParentNode = DefaultTreeAdapterMap['parentNode']

function isElement(node: DefaultTreeAdapterMap['childNode']): node is Element {
  return 'tagName' in node
}

function textContent(node: DefaultTreeAdapterMap['childNode']): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value
  return 'childNodes' in node ? node.childNodes.map(textContent).join('') : ''
}

function languageOf(pre: Element): string | undefined {
  const classes = [pre, ...pre.childNodes.filter(isElement)].flatMap((e) => (e.attrs.find((a) => a.name === 'class')?.value ?? '').split(/\s+/))
  return classes.find((c) => /^language-[\w-]+$/.test(c))
}

/** `<pre class="shiki …" style="…"><code><span …>…` → `<pre><code class="language-x">text</code></pre>`. */
function plainCodeBlock(pre: Element): void {
  const language = languageOf(pre)
  const code = pre.childNodes.map(textContent).join('')
  for (const child of [...pre.childNodes]) defaultTreeAdapter.detachNode(child)
  pre.attrs = []
  const codeElement = defaultTreeAdapter.createElement('code', htmlSpec.NS.HTML, language ? [{ name: 'class', value: language }] : [])
  defaultTreeAdapter.insertText(codeElement, code)
  defaultTreeAdapter.appendChild(pre, codeElement)
}

function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).href
  } catch {
    return url
  }
}

const URL_ATTRIBUTES = new Set(['href', 'src'])

/** The feed form of an article's HTML; `articleUrl` is what relative links are resolved against. */
export function feedHtml(html: string | null | undefined, articleUrl: string): string {
  if (!html) return ''
  const fragment = parseFragment(html)
  const stack: ParentNode[] = [fragment]
  while (stack.length) {
    const parent = stack.pop()!
    for (const node of parent.childNodes) {
      if (!isElement(node)) continue
      if (node.tagName === 'pre') {
        plainCodeBlock(node)
        continue
      }
      node.attrs = node.attrs
        .filter((a) => a.name !== 'style')
        .map((a) => (URL_ATTRIBUTES.has(a.name) ? { ...a, value: absolute(a.value, articleUrl) } : a))
      stack.push(node)
    }
  }
  return serialize(fragment)
}
