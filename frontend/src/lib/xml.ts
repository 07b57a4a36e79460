/**
 * Characters XML 1.0 forbids (https://www.w3.org/TR/xml/#charsets): C0
 * controls except tab, line feed and carriage return, U+FFFE, U+FFFF, and
 * surrogates that are not part of a pair (with the `u` flag a paired
 * surrogate is one code point above U+FFFF, so only lone ones match).
 *
 * The feeds drop them from every string before it is written, whatever the
 * database holds: one U+0001 in a title would otherwise make the whole feed
 * unreadable to every reader (XML parsers must stop at the first such
 * character), and the `feed` package writes them as they are.
 */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu

export function xmlSafe(text: string): string {
  return text.replace(FORBIDDEN, '')
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/** Text for XML element content or an attribute value: forbidden characters dropped, markup characters escaped. */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}
