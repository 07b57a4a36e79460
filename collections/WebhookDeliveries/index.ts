import type { CollectionConfig } from 'payload'

import { can } from '../../src/access'
import { WEBHOOK_EVENTS } from '../../src/plugins/webhooks/events'
import { bothLanguages, adminGroup, collectionLabels, optionLabels } from '../../src/lib/i18n/labels'

const serverOwned = { create: () => false, update: () => false }

/**
 * The delivery log and outbox of webhooks (src/plugins/webhooks): one row per
 * event and hook, inserted in the transaction of the change that caused it,
 * with every attempt (status, duration, excerpt of the answer) in `attempts`.
 * Written only by the plugin (SQL); read by holders of `webhooks.manage`.
 * Redeliver with POST /api/webhooks/:id/redeliver.
 */
export const WebhookDeliveries: CollectionConfig = {
  slug: 'webhook-deliveries',
  labels: collectionLabels('admin.webhookDeliveries'),
  admin: {
    useAsTitle: 'event',
    group: adminGroup('settings'),
    defaultColumns: ['webhook', 'event', 'status', 'attemptCount', 'lastStatus', 'nextAttemptAt', 'createdAt'],
    description: bothLanguages('admin.webhookDeliveries.description'),
  },
  access: { read: can('webhooks.manage'), create: () => false, update: () => false, delete: can('webhooks.manage') },
  defaultSort: '-createdAt',
  fields: [
    { name: 'actions', type: 'ui', admin: { position: 'sidebar', components: { Field: '/src/plugins/webhooks/admin/WebhookActions#RedeliverButton' } } },
    { name: 'webhook', type: 'relationship', relationTo: 'webhooks', required: true, index: true, access: serverOwned },
    { name: 'event', type: 'select', required: true, index: true, options: WEBHOOK_EVENTS.map((value) => ({ label: value, value })), access: serverOwned },
    { name: 'messageId', type: 'text', required: true, unique: true, admin: { description: bothLanguages('admin.field.webhookDeliveries.messageId') }, access: serverOwned },
    { name: 'body', type: 'json', required: true, access: serverOwned },
    {
      name: 'status',
      type: 'select',
      required: true,
      defaultValue: 'pending',
      index: true,
      options: optionLabels('admin.option.deliveryStatus', ['pending', 'sending', 'delivered', 'failed']),
      access: serverOwned,
    },
    { name: 'attemptCount', type: 'number', defaultValue: 0, access: serverOwned },
    { name: 'nextAttemptAt', type: 'date', index: true, access: serverOwned },
    { name: 'leaseUntil', type: 'date', admin: { hidden: true }, access: serverOwned },
    { name: 'lastStatus', type: 'number', access: serverOwned },
    { name: 'lastError', type: 'text', access: serverOwned },
    { name: 'deliveredAt', type: 'date', access: serverOwned },
    { name: 'attempts', type: 'json', defaultValue: [], admin: { description: bothLanguages('admin.field.webhookDeliveries.attempts') }, access: serverOwned },
  ],
}
