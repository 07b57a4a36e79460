/**
 * The heap an import command runs with (scripts/importHeap.mjs, applied by
 * scripts/launch.mjs): both limits, unless a heap size was already chosen.
 */
import { describe, expect, it } from 'vitest'

import { IMPORT_HEAP_FLAGS, importHeapFlags } from '../../scripts/importHeap.mjs'

describe('importHeapFlags', () => {
  it('bounds the old and the young generation', () => {
    expect(importHeapFlags([], '')).toEqual(IMPORT_HEAP_FLAGS)
    expect(IMPORT_HEAP_FLAGS).toEqual(['--max-old-space-size=256', '--max-semi-space-size=16'])
  })

  it('gives none when NODE_OPTIONS or the command line already chose a heap size', () => {
    expect(importHeapFlags([], '--enable-source-maps --max-old-space-size=1024')).toEqual([])
    expect(importHeapFlags(['--max-old-space-size=512'], '')).toEqual([])
  })
})
