/**
 * The process's Prometheus metrics (prom-client), served at GET /metrics by
 * the one-origin server (src/server/observability.ts). One registry per
 * process: the server, the Next bundle (REST, sync-mode jobs) and the workers
 * each load their own copy of this module, so the registry and its metrics
 * live in processShared and every copy counts into the same ones.
 *
 * Labels are bounded: route kinds (src/server/observability.ts), job names
 * (registered by plugins), outcomes. Never a raw path, user or address.
 */
import client from 'prom-client'

import { processShared } from './processShared'

const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

function create() {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 })
  const reg = { registers: [registry] }
  return {
    registry,
    requests: new client.Counter({ name: 'inkwell_http_requests_total', help: 'Requests answered, by route kind, method and status class', labelNames: ['route', 'method', 'status'] as const, ...reg }),
    requestSeconds: new client.Histogram({ name: 'inkwell_http_request_duration_seconds', help: 'Time to the end of the response, by route kind', labelNames: ['route'] as const, buckets, ...reg }),
    jobs: new client.Counter({ name: 'inkwell_jobs_total', help: 'Job runs by job name and outcome (completed, failed)', labelNames: ['job', 'outcome'] as const, ...reg }),
    jobSeconds: new client.Histogram({ name: 'inkwell_job_duration_seconds', help: 'Time one job run took, by job name', labelNames: ['job'] as const, buckets, ...reg }),
    mails: new client.Counter({ name: 'inkwell_mails_total', help: 'Mails handed to the mail transport, by outcome (sent, failed)', labelNames: ['outcome'] as const, ...reg }),
    viewBatches: new client.Counter({ name: 'inkwell_view_batches_total', help: 'View-count batches written, by outcome (written, failed)', labelNames: ['outcome'] as const, ...reg }),
  }
}

export type Metrics = ReturnType<typeof create>

export function metrics(): Metrics {
  return processShared('metrics', create)
}

/**
 * A metric whose values are read when /metrics is scraped (`counter` for
 * totals kept elsewhere, such as the render cache's hits). A later
 * registration of the same name replaces the earlier one (a server restarted
 * in the same process reads its own cache).
 */
export function collectedMetric(
  type: 'gauge' | 'counter',
  name: string,
  help: string,
  labelNames: string[],
  read: (set: (labels: Record<string, string>, value: number) => void) => Promise<void> | void,
): void {
  const { registry } = metrics()
  registry.removeSingleMetric(name)
  const options = { name, help, labelNames, registers: [registry] }
  if (type === 'gauge') {
    new client.Gauge({ ...options, async collect() { this.reset(); await read((labels, value) => this.set(labels, value)) } })
  } else {
    new client.Counter({ ...options, async collect() { this.reset(); await read((labels, value) => this.inc(labels, value)) } })
  }
}
