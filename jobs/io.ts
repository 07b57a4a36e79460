/** Where a command's progress goes: the terminal for a person, the logger for a worker. */
import type { Payload } from 'payload'

import type { CommandIO } from './commands'

/** A worker has nobody watching a bar: lines go to the logger, progress is dropped. */
export function workerIO(payload: Payload, name: string): CommandIO {
  return { log: (line) => payload.logger.info(`${name}: ${line}`), progress: () => {} }
}

/**
 * The CLI's output: lines as they come, and progress as `name: done/total (p%)`
 * at most once per whole percent, so a million items print 100 lines, not a million.
 */
export function terminalIO(name: string, write: (line: string) => void = (l) => process.stdout.write(l + '\n')): CommandIO {
  let lastPercent = -1
  return {
    log: (line) => write(line),
    progress: (done, total) => {
      const percent = total > 0 ? Math.floor((done / total) * 100) : 100
      if (percent === lastPercent && done !== total) return
      lastPercent = percent
      write(`${name}: ${done}/${total} (${percent}%)`)
    },
  }
}
