/**
 * How the view counter and the last-active recorder write in the background:
 * a timer flushes every `intervalMs` (unref'd, so it never keeps a process
 * alive), flushes run one at a time, and stop() clears the timer and flushes
 * once more (clean shutdown). What a flush writes, and how it keeps what
 * failed for the next one, is the owner's `flushOnce`.
 */
export class SerialFlush {
  private running: Promise<void> = Promise.resolve()
  private queued: Promise<void> | undefined
  private timer: NodeJS.Timeout

  constructor(
    private flushOnce: () => Promise<void>,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs)
    this.timer.unref()
  }

  /** A flush is queued and has not started yet: what arrives now will be in it. */
  get waiting(): boolean {
    return this.queued !== undefined
  }

  /**
   * Calls made while a flush is already waiting to start share it, so a
   * stream of calls during an outage queues one flush, not one per call.
   */
  flush(): Promise<void> {
    if (!this.queued) {
      this.queued = this.running.then(() => {
        this.queued = undefined
        return this.flushOnce()
      })
      this.running = this.queued
    }
    return this.queued
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
