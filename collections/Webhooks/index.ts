import type { CollectionConfig, Validate } from 'payload'

import { can } from '../../src/access'
import { validationTranslator } from '../../src/lib/i18n/request'
import { WEBHOOK_EVENTS } from '../../src/plugins/webhooks/events'
import { issueWebhookSecret, showSecretOnce, validWebhookUrl } from './hooks'

const validEvents: Validate = (value, { req }) => {
  const t = validationTranslator(req)
  if (!Array.isArray(value) || value.length === 0) return t('validation.webhookNoEvents')
  const unknown = value.filter((e) => !(WEBHOOK_EVENTS as readonly unknown[]).includes(e))
  return unknown.length ? t('validation.webhookUnknownEvents', { unknown: unknown.join(', '), known: WEBHOOK_EVENTS.join(', ') }) : true
}

const serverOwned = { create: () => false, update: () => false }

/**
 * Outgoing webhooks (src/plugins/webhooks): where to POST which events, signed
 * per Standard Webhooks with the hook's secret. The secret is drawn by the
 * server, stored hidden (it must sign, so it is not hashed), and shown once:
 * as `secret` in the answer that creates the hook or rotates it.
 */
export const Webhooks: CollectionConfig = {
  slug: 'webhooks',
  labels: { singular: 'Webhook', plural: 'Webhooks' },
  admin: {
    useAsTitle: 'url',
    group: 'Settings',
    defaultColumns: ['url', 'events', 'enabled', 'failingSince', 'updatedAt'],
    description:
      'Each hook receives a signed JSON POST for the events it lists. Create one with the form above the list: its signing secret (whsec_…) is shown once. In a hook: ping, rotate the secret, redeliver failures, open its delivery log.',
    components: { beforeListTable: ['/src/plugins/webhooks/admin/WebhookCreator#WebhookCreator'] },
  },
  access: { read: can('webhooks.manage'), create: can('webhooks.manage'), update: can('webhooks.manage'), delete: can('webhooks.manage') },
  defaultSort: '-createdAt',
  hooks: { beforeChange: [issueWebhookSecret], afterRead: [showSecretOnce] },
  fields: [
    { name: 'actions', type: 'ui', admin: { position: 'sidebar', components: { Field: '/src/plugins/webhooks/admin/WebhookActions#WebhookActions' } } },
    { name: 'url', type: 'text', required: true, maxLength: 2000, validate: validWebhookUrl, admin: { description: 'https only (http to loopback only when OUTBOUND_ALLOW_PRIVATE=true).' } },
    { name: 'events', type: 'json', required: true, validate: validEvents, admin: { description: `A JSON array of event names: ${WEBHOOK_EVENTS.join(', ')}.` } },
    { name: 'description', type: 'textarea', maxLength: 500 },
    { name: 'enabled', type: 'checkbox', defaultValue: true, admin: { position: 'sidebar' } },
    { name: 'owner', type: 'relationship', relationTo: 'users', index: true, admin: { readOnly: true, position: 'sidebar' }, access: serverOwned },
    { name: 'secret', type: 'text', hidden: true, access: serverOwned },
    { name: 'previousSecret', type: 'text', hidden: true, access: serverOwned },
    { name: 'previousSecretUntil', type: 'date', admin: { readOnly: true, position: 'sidebar', description: 'The old secret keeps signing beside the new one until then.' }, access: serverOwned },
    { name: 'failingSince', type: 'date', admin: { readOnly: true, position: 'sidebar', description: 'Set by the first failed attempt after a success; after 3 days the hook is disabled.' }, access: serverOwned },
    { name: 'disabledReason', type: 'text', admin: { readOnly: true, position: 'sidebar' }, access: serverOwned },
  ],
}
