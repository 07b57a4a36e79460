/**
 * What a page render knows about the render cache that runs it, shared by the
 * server and the Astro bundle (each has its own module instances, hence
 * processShared). The cache runs each render inside an AsyncLocalStorage
 * context; code in the page that swallows an error (to show the rest of the
 * page) reports it here, so the cache does not keep that degraded page.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

import { processShared } from './processShared'

export type RenderState = {
  /** Something failed and the page shows less than it should: never store it. */
  swallowedError: boolean
}

const storage = processShared('renderContext', () => new AsyncLocalStorage<RenderState>())

export function runRender<T>(state: RenderState, fn: () => T): T {
  return storage.run(state, fn)
}

export function currentRender(): RenderState | undefined {
  return storage.getStore()
}

/** Call where a page catches an error and renders without the missing part. */
export function reportSwallowedError(): void {
  const state = storage.getStore()
  if (state) state.swallowedError = true
}
