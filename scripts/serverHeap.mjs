/**
 * The young generation the web process runs with (`npm start`, re-executed
 * with it by launch.mjs; the bench starts it the same way).
 *
 * Node 24 grows each semi-space of the young generation to 64 MB of its own
 * under a cached-page flood, and a scavenge touches both: 128 MB of RSS in the
 * young generation alone. Two web processes under the same wrk load, in turn
 * (the demo site, then 2,000 articles): by default each peaked at 380–401 MB,
 * with 32 MB semi-spaces at 295–315 MB, at the same CPU per request; at 16 MB
 * more survived into the old space and it peaked at 455 MB (docs/PERFORMANCE.md,
 * "The brotli window and the young generation"). Flags given at start, since
 * V8 sizes its heap once (v8.setFlagsFromString is ignored after).
 *
 * Plain JavaScript: launch.mjs reads it before any TypeScript loader exists.
 */
export const SERVER_HEAP_FLAGS = ['--max-semi-space-size=32']

/** The flags, unless the environment or the command line already chose a young generation size (then none). */
export function serverHeapFlags(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  return [...execArgv, nodeOptions].some((a) => a.includes('--max-semi-space-size')) ? [] : SERVER_HEAP_FLAGS
}
