/**
 * The one allow-list sanitizer for every piece of user-submitted HTML: article
 * bodies in both formats, replies and profile introductions. Configured once;
 * sanitizing twice gives the same output.
 *
 * What it lets through is deliberately small: text structure, links, images,
 * tables and highlighted code. No element or attribute that can run script
 * (event handlers, <script>, <svg>, <math>, <iframe>, <object>, <form>,
 * <style>, srcset, …) is on the list, URLs are limited to http(s), mailto and
 * relative ones (sanitize-html decodes entities and strips control
 * characters and whitespace before it checks the scheme), and `style` is
 * parsed and kept only for the colour variables the highlighter emits.
 *
 * The input is first parsed and re-serialized the way a browser parses it
 * (parse5 implements the WHATWG algorithm), so the filter judges the tree the
 * reader's browser will build, not a different parser's idea of it (the root
 * of mutation XSS); the output is normalized the same way, which also makes
 * sanitizing idempotent.
 */
import { parseFragment, serialize, type DefaultTreeAdapterMap } from 'parse5'
import sanitizeHtml from 'sanitize-html'


/**
 * How links leaving the site are marked: the `rel` they get (EXTERNAL_LINK_REL)
 * and the site's origin (from BASE_URL), whose absolute links are not external.
 * The content plugin is given it by the composition (linkPolicyOf).
 */
export type LinkPolicy = { externalLinkRel: string; siteOrigin?: string }

/** Without a policy (tools, tests): every absolute link is external, with the default rel. */
export const DEFAULT_LINK_POLICY: LinkPolicy = { externalLinkRel: 'noopener noreferrer nofollow' }

const ALLOWED_TAGS = [
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'span',
  'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark', 'sub', 'sup', 'kbd', 'abbr',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'a', 'img', 'figure', 'figcaption',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'details', 'summary',
]

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6']

const COLOR = /^#[0-9a-f]{3,8}$/i
/** The custom properties shiki writes for its two themes, and nothing else. */
const SHIKI_STYLES: Record<string, RegExp[]> = Object.fromEntries(
  ['light', 'dark'].flatMap((theme) => [
    [`--shiki-${theme}`, [COLOR]],
    [`--shiki-${theme}-bg`, [COLOR]],
    [`--shiki-${theme}-font-style`, [/^(italic|normal)$/]],
    [`--shiki-${theme}-font-weight`, [/^(bold|normal|\d{3})$/]],
    [`--shiki-${theme}-text-decoration`, [/^(underline|line-through|none)$/]],
  ]),
)

/** Anchor ids (heading links) stay plain, so they can't clobber DOM globals or carry markup. */
const SAFE_ID = /^[a-z0-9][a-z0-9_-]{0,99}$/


/** A URL as the browser's URL parser reads it: tabs and line breaks dropped anywhere, leading spaces and controls dropped. */
function browserUrl(href: string | undefined): string {
  return (href ?? '').replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '')
}

/**
 * Another host without a scheme: two leading slashes or backslashes (`//host`,
 * `\\host`, `/\host`), which browsers all read as `//host`. Never linked to,
 * as `allowProtocolRelative: false` already does for `//host`: the href goes.
 */
function isProtocolRelative(href: string | undefined): boolean {
  return /^[\\/]{2}/.test(browserUrl(href))
}

/** A link to another site, read as a browser reads it: any `http:`/`https:` scheme, however the slashes are written (`https:\\host/`, `https:host/`). */
function isExternal(href: string | undefined): boolean {
  return /^https?:/i.test(browserUrl(href))
}


function keepSafeId(tagName: string, attribs: sanitizeHtml.Attributes) {
  const { id, ...rest } = attribs
  return { tagName, attribs: id && SAFE_ID.test(id) ? { ...rest, id } : rest }
}

/**
 * Which images may load on their own. Authors (trusted roles) may embed any
 * https image in articles; replies come from any reader, and an image there
 * would make every visitor's browser contact a host the reader chose (a
 * tracking pixel, an IP logger). So in replies an image from another site is
 * rewritten into a plain link to it, which loads nothing until clicked.
 */
export type ImagePolicy = 'any' | 'site'

/** A path on this site ("/api/media/…"), or an absolute URL on the site's own origin. */
function isSiteImage(src: string | undefined, siteOrigin: string): boolean {
  if (!src) return false
  if (src.startsWith('/') && !src.startsWith('//') && !src.startsWith('/\\')) return true
  try {
    return new URL(src).origin === siteOrigin
  } catch {
    return false
  }
}

function imageTransform(images: ImagePolicy, siteOrigin: string, externalLinkRel: string): sanitizeHtml.Transformer {
  return (tagName, attribs) => {
    const { loading, ...rest } = attribs
    if (images === 'site' && !isSiteImage(attribs.src, siteOrigin)) {
      // sanitize-html keeps the element's text, so the link reads as the image's alt text.
      const label = attribs.alt || attribs.title || attribs.src || 'image'
      const href = attribs.src ?? ''
      // The same attributes the link rule gives links, so sanitizing again changes nothing.
      const link: sanitizeHtml.Attributes = isProtocolRelative(href) ? {} : isExternal(href) ? { href, rel: externalLinkRel, target: '_blank' } : { href }
      return { tagName: 'a', attribs: link, text: label }
    }
    return { tagName, attribs: loading === 'lazy' || loading === 'eager' ? { ...rest, loading } : rest }
  }
}

function buildOptions(externalLinkRel: string, images: ImagePolicy, siteOrigin: string): sanitizeHtml.IOptions {
  return {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'target'],
      img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
      code: ['class'],
      pre: ['class', 'style'],
      span: ['class', 'style'],
      th: ['align', 'colspan', 'rowspan'],
      td: ['align', 'colspan', 'rowspan'],
      ol: ['start'],
      ...Object.fromEntries(HEADINGS.map((h) => [h, ['id']])),
      abbr: ['title'],
      details: ['open'],
    },
    allowedClasses: {
      code: [/^language-[\w-]+$/],
      pre: [/^language-[\w-]+$/, 'shiki', 'shiki-themes', /^github-(light|dark)$/],
      span: ['line'],
    },
    allowedStyles: { pre: SHIKI_STYLES, span: SHIKI_STYLES },
    parseStyleAttributes: true,
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      ...Object.fromEntries(HEADINGS.map((h) => [h, keepSafeId])),
      a: (tagName, attribs) => {
        const { rel: _rel, target: _target, href, ...rest } = attribs
        // rel and target are the site's decision, never the author's.
        if (href === undefined || isProtocolRelative(href)) return { tagName, attribs: rest }
        return { tagName, attribs: isExternal(href) ? { ...rest, href, rel: externalLinkRel, target: '_blank' } : { ...rest, href } }
      },
      img: imageTransform(images, siteOrigin, externalLinkRel),
    },
  }
}

const optionsByKey = new Map<string, sanitizeHtml.IOptions>()

function options(images: ImagePolicy, { externalLinkRel, siteOrigin = '' }: LinkPolicy): sanitizeHtml.IOptions {
  const key = `${externalLinkRel}|${images}|${siteOrigin}`
  let built = optionsByKey.get(key)
  if (!built) optionsByKey.set(key, (built = buildOptions(externalLinkRel, images, siteOrigin)))
  return built
}

/** Stored HTML is shown inside a <div> of the article page, so it is parsed in that context. */
const bodyContext = parseFragment('<div></div>').childNodes[0] as DefaultTreeAdapterMap['element']

function asBrowserParsesIt(html: string): string {
  return serialize(parseFragment(bodyContext, html, {}))
}

export function sanitize(
  html: string | null | undefined,
  { images = 'any', links = DEFAULT_LINK_POLICY }: { images?: ImagePolicy; links?: LinkPolicy } = {},
): string {
  if (!html) return ''
  return asBrowserParsesIt(sanitizeHtml(asBrowserParsesIt(html), options(images, links)))
}
