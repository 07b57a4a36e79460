/**
 * The V8 heap flags the web process runs with (scripts/serverHeap.mjs,
 * applied by scripts/launch.mjs): both, less any an operator already set.
 */
import { describe, expect, it } from 'vitest'

import { SERVER_HEAP_FLAGS, serverHeapFlags } from '../../scripts/serverHeap.mjs'

describe('serverHeapFlags', () => {
  it('bounds each semi-space at 32 MB and turns allocation-site pretenuring off', () => {
    expect(serverHeapFlags([], '')).toEqual(SERVER_HEAP_FLAGS)
    expect(SERVER_HEAP_FLAGS).toEqual(['--max-semi-space-size=32', '--no-allocation-site-pretenuring'])
  })

  it('leaves out what NODE_OPTIONS or the command line already set, so the re-start happens once', () => {
    expect(serverHeapFlags([], '--enable-source-maps --max-semi-space-size=64')).toEqual(['--no-allocation-site-pretenuring'])
    expect(serverHeapFlags(['--max-semi-space-size=16'], '')).toEqual(['--no-allocation-site-pretenuring'])
    expect(serverHeapFlags(['--allocation-site-pretenuring'], '')).toEqual(['--max-semi-space-size=32'])
    expect(serverHeapFlags(SERVER_HEAP_FLAGS, '')).toEqual([])
  })
})
