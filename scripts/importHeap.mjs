/**
 * The heap an import command runs with (`npm run blog -- import:…`, re-run
 * with it by launch.mjs; bench/import.ts measures with it too).
 *
 * An import holds one batch at a time: its live heap stays near 105 MB from
 * the first post to the last. But V8 lets the old space grow to ~500 MB of
 * garbage before a full collection, so a 10,000-post import peaked at ~800 MB
 * RSS; with the old space bounded it collects sooner and the process (about
 * 300 MB of it the booted app itself) stays under issue 30's 400 MB
 * (docs/PERFORMANCE.md, "Importing a WordPress site"). Flags given at start, since
 * V8 ignores heap limits set once running (v8.setFlagsFromString).
 *
 * Plain JavaScript: launch.mjs reads it before any TypeScript loader exists.
 */
export const IMPORT_HEAP_FLAGS = [
  // About twice the live heap (~127 MB with the app booted): room for a batch's garbage between full collections.
  '--max-old-space-size=256',
  // Node 24 sizes the young generation at up to 3 × 64 MB of its own; 3 × 16 MB keeps it inside the budget.
  '--max-semi-space-size=16',
]

/** The flags, unless the environment or the command line already chose a heap size (then none). */
export function importHeapFlags(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  return [...execArgv, nodeOptions].some((a) => a.includes('--max-old-space-size')) ? [] : IMPORT_HEAP_FLAGS
}
