/** Waits for a condition that has no event to await (e.g. a row written by another process). */
export async function waitUntil<T>(check: () => Promise<T | undefined | false>, { timeoutMs = 30_000, everyMs = 100, what = 'condition' } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}
