/**
 * The XML writer of the feeds. Every text and attribute value goes through
 * one escape, so nothing a user typed can become markup, and every character
 * XML 1.0 forbids is dropped there, whatever the database holds: one U+0001
 * in a title would otherwise make the whole feed unreadable to every reader
 * (XML parsers must stop at the first such character).
 *
 * Markup is built as `Xml` values, never as strings, so raw text cannot be
 * put where markup goes by mistake: a plain string given to `el` is text.
 */

/**
 * What XML 1.0 does not allow (https://www.w3.org/TR/xml/#charsets): C0
 * controls except tab, line feed and carriage return, U+FFFE, U+FFFF, and
 * surrogates that are not part of a pair (with the `u` flag a paired
 * surrogate is one code point above U+FFFF, so only lone ones match).
 */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu

export function xmlSafe(text: string): string {
  return text.replace(FORBIDDEN, '')
}

/**
 * Hexadecimal references, as the RSS Best Practices Profile recommends for
 * plain text (they work in the widest range of aggregators and raise no
 * validator warning); to an XML parser they are the same as `&amp;` & co.
 */
const ENTITIES: Record<string, string> = { '&': '&#x26;', '<': '&#x3C;', '>': '&#x3E;', '"': '&#x22;', "'": '&#x27;' }

/** Text for an element's content or an attribute value (quotes are escaped too, so it fits both). */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

export class Xml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup
  }
}

type Child = Xml | string | null | undefined | false
type Attributes = Record<string, string | number | undefined | null>

/** `<name attr="…">children</name>`; string children are text, absent ones are skipped. */
export function el(name: string, attributes: Attributes = {}, ...children: (Child | Child[])[]): Xml {
  const attrs = Object.entries(attributes)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join('')
  const content = children
    .flat()
    .map((child) => (child instanceof Xml ? child.markup : child ? escapeXml(child) : ''))
    .join('')
  return new Xml(content ? `<${name}${attrs}>${content}</${name}>` : `<${name}${attrs}/>`)
}

/** A whole document: the declaration, then the root element. */
export function xmlDocument(root: Xml): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n${root.markup}\n`
}
