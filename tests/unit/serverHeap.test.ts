/**
 * The young generation the web process runs with (scripts/serverHeap.mjs,
 * applied by scripts/launch.mjs): bounded, unless a size was already chosen.
 */
import { describe, expect, it } from 'vitest'

import { SERVER_HEAP_FLAGS, serverHeapFlags } from '../../scripts/serverHeap.mjs'

describe('serverHeapFlags', () => {
  it('bounds each semi-space of the young generation at 32 MB', () => {
    expect(serverHeapFlags([], '')).toEqual(SERVER_HEAP_FLAGS)
    expect(SERVER_HEAP_FLAGS).toEqual(['--max-semi-space-size=32'])
  })

  it('gives none when NODE_OPTIONS or the command line already chose a size (so the re-start happens once)', () => {
    expect(serverHeapFlags([], '--enable-source-maps --max-semi-space-size=64')).toEqual([])
    expect(serverHeapFlags(['--max-semi-space-size=16'], '')).toEqual([])
  })
})
