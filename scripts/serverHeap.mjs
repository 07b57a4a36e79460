/**
 * The young generation the web process runs with (`npm start`, re-executed
 * with it by launch.mjs; the bench starts it the same way).
 *
 * Node 24 grows each semi-space of the young generation to 64 MB of its own
 * under load, and a scavenge touches both: a cached-page flood held ~128 MB
 * of RSS in the young generation alone, and the web process peaked at 400–440 MB
 * (issue 28's bench, goal ≤ 400 MB). With 32 MB semi-spaces it peaked at
 * ~310 MB at the same rate and the same CPU per request (interleaved runs,
 * docs/PERFORMANCE.md, "The young generation"); at 16 MB more survived
 * into the old space and the peak rose again. Flags given at start, since V8
 * sizes its heap once (v8.setFlagsFromString is ignored after).
 *
 * Plain JavaScript: launch.mjs reads it before any TypeScript loader exists.
 */
export const SERVER_HEAP_FLAGS = ['--max-semi-space-size=32']

/** The flags, unless the environment or the command line already chose a young generation size (then none). */
export function serverHeapFlags(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  return [...execArgv, nodeOptions].some((a) => a.includes('--max-semi-space-size')) ? [] : SERVER_HEAP_FLAGS
}
