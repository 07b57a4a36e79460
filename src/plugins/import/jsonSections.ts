/**
 * Reads a JSON document shaped `{ "key": value, "list": [item, item, …], … }`
 * (Inkwell's export, inkwellJson.ts) as a stream: each top-level value, and
 * each item of a top-level list, is parsed on its own as the file goes by,
 * so memory holds one item, never the file. Only the shape around the items
 * is scanned here (strings, nesting, commas); each value is JSON.parse'd, so
 * what is inside follows JSON exactly. A malformed or truncated file throws a
 * SyntaxError naming the character where it went wrong.
 */
import { createReadStream } from 'node:fs'

export type JsonSectionEvent = { key: string; value: unknown } | { key: string; index: number; item: unknown }

const QUOTE = 34
const BACKSLASH = 92
const OPEN_OBJECT = 123
const CLOSE_OBJECT = 125
const OPEN_ARRAY = 91
const CLOSE_ARRAY = 93
const COMMA = 44
const COLON = 58
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9

type Mode = 'start' | 'key' | 'colon' | 'value' | 'after-value' | 'item' | 'after-item' | 'end'

/**
 * The events of `file`, in file order. `wanted(key)` false skips a key's
 * value or items without parsing them (a pass that reads one list).
 */
export async function* readJsonSections(file: string, wanted: (key: string) => boolean = () => true): AsyncGenerator<JsonSectionEvent> {
  let mode: Mode = 'start'
  let key = ''
  let index = 0
  let depth = 0 // nesting inside the value or item being read
  let inString = false
  let escaped = false
  let parts: string[] = [] // the raw text of the value or item (or key) being read
  let capturing = false
  let keep = true
  let position = 0
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at character ${position}`)
  }

  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 }) as AsyncIterable<string>) {
    let start = 0 // where this chunk's part of the captured text begins
    const events: JsonSectionEvent[] = []
    for (let i = 0; i < chunk.length; i++, position++) {
      const c = chunk.charCodeAt(i)
      if (capturing) {
        // Inside a key, a value or an item: follow strings and nesting until it ends.
        if (inString) {
          if (escaped) escaped = false
          else if (c === BACKSLASH) escaped = true
          else if (c === QUOTE) {
            inString = false
            if (mode === 'key') {
              parts.push(chunk.slice(start, i + 1))
              key = JSON.parse(parts.join('')) as string
              parts = []
              capturing = false
              mode = 'colon'
            }
          }
          continue
        }
        if (c === QUOTE) inString = true
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++
        else if (depth > 0 && (c === CLOSE_OBJECT || c === CLOSE_ARRAY)) depth--
        else if (depth === 0 && (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY)) {
          // The value or item ends just before this comma or bracket.
          if (keep) {
            parts.push(chunk.slice(start, i))
            const text = parts.join('')
            parts = []
            let parsed: unknown
            try {
              parsed = JSON.parse(text)
            } catch (error) {
              fail(`${(error as Error).message} (in ${mode === 'item' ? `${key}[${index}]` : key})`)
            }
            events.push(mode === 'item' ? { key, index, item: parsed } : { key, value: parsed })
          }
          capturing = false
          if (mode === 'item') {
            index++
            if (c === CLOSE_ARRAY) mode = 'after-value'
            else if (c !== COMMA) fail('expected , or ] after a list item')
          } else {
            if (c === COMMA) mode = 'key'
            else if (c === CLOSE_OBJECT) mode = 'end'
            else fail('expected , or } after a value')
          }
        }
        continue
      }
      if (isSpace(c)) continue
      switch (mode) {
        case 'start':
          if (c !== OPEN_OBJECT) fail('expected a JSON object')
          mode = 'key'
          break
        case 'key':
          if (c === CLOSE_OBJECT && !key) {
            mode = 'end'
            break
          }
          if (c !== QUOTE) fail('expected a key')
          capturing = true
          inString = true
          start = i
          parts = []
          break
        case 'colon':
          if (c !== COLON) fail('expected :')
          mode = 'value'
          break
        case 'value':
          keep = wanted(key)
          if (c === OPEN_ARRAY) {
            mode = 'item'
            index = 0
            break
          }
          capturing = true
          depth = c === OPEN_OBJECT || c === OPEN_ARRAY ? 1 : 0
          inString = c === QUOTE
          start = i
          parts = []
          break
        case 'item':
          if (c === CLOSE_ARRAY && index === 0) {
            // An empty list is a value of its own: without it, nothing would say the key was there.
            if (keep) events.push({ key, value: [] })
            mode = 'after-value'
            break
          }
          capturing = true
          depth = c === OPEN_OBJECT || c === OPEN_ARRAY ? 1 : 0
          inString = c === QUOTE
          start = i
          parts = []
          break
        case 'after-value':
          if (c === COMMA) mode = 'key'
          else if (c === CLOSE_OBJECT) mode = 'end'
          else fail('expected , or }')
          break
        case 'end':
          fail('unexpected text after the end of the document')
      }
    }
    // What is being captured continues in the next chunk.
    if (capturing && (keep || mode === 'key')) parts.push(chunk.slice(start))
    yield* events
  }
  if (mode !== 'end') fail('unexpected end of the file (is it truncated?)')
}
