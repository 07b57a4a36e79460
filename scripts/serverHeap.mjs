/**
 * The V8 heap flags the web process runs with (`npm start`, re-executed with
 * them by launch.mjs; the bench starts it the same way).
 *
 * `--max-semi-space-size=32`: Node 24 grows each semi-space of the young
 * generation to 64 MB of its own under a cached-page flood, and a scavenge
 * touches both: 128 MB of RSS in the young generation alone. Two web processes
 * under the same wrk load, in turn (the demo site, then 2,000 articles): by
 * default each peaked at 380–401 MB, with 32 MB semi-spaces at 295–315 MB, at
 * the same CPU per request; at 16 MB more survived into the old space and it
 * peaked at 455 MB.
 *
 * `--no-allocation-site-pretenuring`: V8 allocates straight into the old space
 * the objects of an allocation site whose objects survived scavenges while the
 * young generation was full. Load from the first seconds after start, while the
 * boot's objects all survive, got the cached hit path's own short-lived objects
 * (request records, batches) tenured for the rest of the process's life: its old
 * space then grew ~75 MB every 14 s of load between full collections, the process
 * peaked at 474–603 MB and a hit cost ~20.5 µs of CPU instead of ~17.5 (three bench
 * runs in five; none once the first load came 12 s after start, none with this flag).
 *
 * docs/PERFORMANCE.md, "The brotli window and the young generation". Flags given
 * at start, since V8 sizes its heap once (v8.setFlagsFromString is ignored after).
 *
 * Plain JavaScript: launch.mjs reads it before any TypeScript loader exists.
 */
export const SERVER_HEAP_FLAGS = ['--max-semi-space-size=32', '--no-allocation-site-pretenuring']

/** The option a flag sets: `--no-x` and `--x=1` both set `x`. */
const optionOf = (flag) => flag.replace(/^--(no-)?/, '').split('=')[0]

/** The flags, less any whose option NODE_OPTIONS or the command line already set (so the re-start happens once, and an operator's choice wins). */
export function serverHeapFlags(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].filter((a) => a.startsWith('--')).map(optionOf)
  return SERVER_HEAP_FLAGS.filter((flag) => !given.includes(optionOf(flag)))
}
