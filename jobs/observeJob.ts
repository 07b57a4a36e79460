/**
 * Every job run, in either queue mode, is counted (inkwell_jobs_total,
 * inkwell_job_duration_seconds) and logged as one JSON line: job name, id,
 * attempt, outcome, duration, and on failure the error's message (redacted).
 * Never the job's data: it may name people.
 */
import { logLine } from '../src/lib/jsonLog'
import { metrics } from '../src/lib/metrics'

export async function observeJob(job: { name: string; id?: string; attempt: number }, run: () => Promise<void>): Promise<void> {
  const started = performance.now()
  const m = metrics()
  try {
    await run()
    const seconds = (performance.now() - started) / 1000
    m.jobs.inc({ job: job.name, outcome: 'completed' })
    m.jobSeconds.observe({ job: job.name }, seconds)
    logLine({ msg: 'job', job: job.name, id: job.id, attempt: job.attempt, outcome: 'completed', durationMs: Math.round(seconds * 1000) })
  } catch (error) {
    const seconds = (performance.now() - started) / 1000
    m.jobs.inc({ job: job.name, outcome: 'failed' })
    m.jobSeconds.observe({ job: job.name }, seconds)
    const message = error instanceof Error ? error.message : String(error)
    logLine({ msg: 'job', level: 'warn', job: job.name, id: job.id, attempt: job.attempt, outcome: 'failed', durationMs: Math.round(seconds * 1000), error: message.slice(0, 500) })
    throw error
  }
}
