/**
 * Reads a JSON document shaped `{ "key": value, "list": [item, item, …], … }`
 * (Inkwell's export, inkwellJson.ts) as a stream: each top-level value, and
 * each item of a top-level list, comes out on its own as the file goes by,
 * so memory holds one item, never the file. The parsing is stream-json's
 * (its parser's tokens, assembled into values by its Assembler); this file
 * only says which tokens make one section. A malformed or truncated file
 * throws a SyntaxError.
 */
import { createReadStream } from 'node:fs'

import chain from 'stream-chain'
import { parser } from 'stream-json'
import Assembler from 'stream-json/assembler.js'
import type { Token } from 'stream-json/parser.js'

export type JsonSectionEvent = { key: string; value: unknown } | { key: string; index: number; item: unknown }

const opens = (t: Token) => t.name === 'startObject' || t.name === 'startArray'
const closes = (t: Token) => t.name === 'endObject' || t.name === 'endArray'

/** The parser's tokens, its errors (malformed, truncated) as SyntaxErrors; a file that cannot be read keeps its own error. */
async function* tokensOf(file: string): AsyncGenerator<Token> {
  try {
    // Packed tokens only: a string or number is one token, whatever its length.
    yield* chain([createReadStream(file), parser({ packValues: true, streamValues: false })]) as AsyncIterable<Token>
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw error
    throw new SyntaxError((error as Error).message)
  }
}

/**
 * The events of `file`, in file order. `wanted(key)` false skips a key's
 * value or items without assembling them (a pass that reads one list).
 */
export async function* readJsonSections(file: string, wanted: (key: string) => boolean = () => true): AsyncGenerator<JsonSectionEvent> {
  let started = false
  let ended = false
  let key: string | undefined
  let keep = true
  let list = false // inside a top-level list
  let index = 0
  let value: Assembler | undefined // the value or item being assembled
  let section = '' // whose value or item it is
  let skipping = 0 // nesting of the value or item being skipped
  const event = (parsed: unknown): JsonSectionEvent => (list ? { key: section, index: index++, item: parsed } : { key: section, value: parsed })

  for await (const token of tokensOf(file)) {
    if (value) {
      value.consume(token)
      if (value.done) {
        yield event(value.current)
        value = undefined
      }
      continue
    }
    if (skipping) {
      skipping += opens(token) ? 1 : closes(token) ? -1 : 0
      if (!skipping && list) index++
      continue
    }
    if (!started) {
      if (token.name !== 'startObject') throw new SyntaxError('expected a JSON object')
      started = true
      continue
    }
    if (ended) throw new SyntaxError('unexpected text after the end of the document')
    if (list && token.name === 'endArray') {
      // An empty list is a value of its own: without it, nothing would say the key was there.
      if (index === 0 && keep) yield { key: key!, value: [] }
      list = false
      key = undefined
      continue
    }
    if (!list) {
      if (token.name === 'endObject') {
        ended = true
        continue
      }
      if (key === undefined) {
        if (token.name !== 'keyValue') throw new SyntaxError(`expected a key, not ${token.name}`)
        key = token.value
        keep = wanted(key)
        continue
      }
      if (token.name === 'startArray') {
        list = true
        index = 0
        continue
      }
    }
    // A value (or a list's item) begins with this token.
    section = key!
    if (!keep) {
      if (opens(token)) skipping = 1
      else if (list) index++
    } else {
      const assembler = new Assembler().consume(token)
      if (assembler.done) yield event(assembler.current)
      else value = assembler
    }
    if (!list) key = undefined
  }
  if (!ended) throw new SyntaxError('unexpected end of the file (is it truncated?)')
}
