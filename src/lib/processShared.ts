/**
 * One value per process, however many copies of a module load it. The
 * one-origin server, the Next bundle (Payload's REST) and the Astro bundle (the
 * reader site) run in one process but each bundles its own copy of every
 * module, so a module variable would exist three times; state they must share
 * lives on globalThis under a registered symbol instead, created on first use.
 */
export function processShared<T>(key: string, create: () => T): T {
  const slot = Symbol.for(`inkwell.${key}`)
  const shared = globalThis as unknown as Record<symbol, T | undefined>
  return (shared[slot] ??= create())
}
