/**
 * Removes the characters at the end of `text` that `isTrimmed` accepts, in one
 * backwards pass. An anchored `/x+$/` would do the same, but a regular
 * expression engine tries it from every run of `x` in the text, which costs
 * quadratic time on text full of such runs (tests/unit/redos.test.ts).
 */
export function trimEnd(text: string, isTrimmed: (character: string) => boolean): string {
  let end = text.length
  while (end > 0 && isTrimmed(text[end - 1]!)) end--
  return text.slice(0, end)
}

export const withoutTrailingSlashes = (url: string): string => trimEnd(url, (c) => c === '/')
