/**
 * Outgoing webhooks, as one feature: the Webhooks collection (managed by
 * holders of `webhooks.manage`), the delivery log (WebhookDeliveries), the
 * hooks that record events in the writing transaction (eventHooks.ts,
 * record.ts), the `deliver-webhook` job that signs (Standard Webhooks) and
 * sends through the guarded outbound fetch with retries (deliver.ts), the
 * per-minute `retry-webhooks` schedule, and the ping, rotate-secret and
 * redeliver endpoints. Remove the plugin and nothing is sent; nothing else changes.
 */
import type { CollectionConfig, Config, Plugin } from 'payload'

import { WebhookDeliveries } from '../../../collections/WebhookDeliveries'
import { Webhooks } from '../../../collections/Webhooks'
import { addJobs, addSchedules } from '../../../jobs/commands'
import { addToConfig } from '../addToConfig'
import { withPluginOptions } from '../pluginOptions'
import { deliverWebhook, retryDueDeliveries, type DeliverWebhookData } from './deliver'
import { pingEndpoint, redeliverEndpoint, rotateSecretEndpoint } from './endpoints'
import { withEventHooks, withSettingsHook } from './eventHooks'
import { WEBHOOKS_KEY, type WebhooksOptions } from './options'
import { announceScheduledArticles } from './scheduledArticles'

declare module '../../../jobs/definitions' {
  interface JobData {
    'deliver-webhook': DeliverWebhookData
  }
}

export type { WebhooksOptions } from './options'

export const webhooksPlugin =
  (options: WebhooksOptions): Plugin =>
  (config: Config): Config => {
    const webhooks: CollectionConfig = { ...Webhooks, endpoints: [pingEndpoint, rotateSecretEndpoint, redeliverEndpoint] }
    const added = withPluginOptions(addToConfig({ collections: [webhooks, WebhookDeliveries] })(config) as Config, WEBHOOKS_KEY, options)
    const hooked: Config = { ...added, collections: added.collections!.map(withEventHooks), globals: (added.globals ?? []).map(withSettingsHook) }
    // Retries are the plugin's own (the delivery row holds the schedule), so the job itself is tried once per send;
    // sixteen workers per process, since a delivery mostly waits (on the receiver, up to 10 s, and on the database):
    // bench:webhooks measured a 1,000-event burst at p95 22 s with eight (the backlog outgrew the workers), 0.15 s with sixteen.
    const withJob = addJobs(hooked, { 'deliver-webhook': { handler: deliverWebhook, tries: 1, concurrency: 16 } })
    return addSchedules(withJob, [
      {
        name: 'retry-webhooks',
        cron: '* * * * *',
        description: 'Attempt every webhook delivery whose retry is due (the backstop of the queued retries)',
        run: async (payload) => `attempted ${await retryDueDeliveries(payload)} due webhook deliveries`,
      },
      {
        name: 'announce-scheduled-articles',
        cron: '* * * * *',
        description: 'Send article.published for scheduled articles whose publish time has come',
        run: (payload) => announceScheduledArticles(payload),
      },
    ])
  }
