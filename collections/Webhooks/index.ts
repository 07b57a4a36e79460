import type { CollectionConfig, Validate } from 'payload'

import { can } from '../../src/access'
import { validationTranslator } from '../../src/lib/i18n/request'
import { WEBHOOK_EVENTS } from '../../src/plugins/webhooks/events'
import { issueWebhookSecret, showSecretOnce, validWebhookUrl } from './hooks'
import { bothLanguages, adminGroup, collectionLabels } from '../../src/lib/i18n/labels'

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
  labels: collectionLabels('admin.webhooks'),
  admin: {
    useAsTitle: 'url',
    group: adminGroup('settings'),
    defaultColumns: ['url', 'events', 'enabled', 'failingSince', 'updatedAt'],
    description: bothLanguages('admin.webhooks.description'),
    components: { beforeListTable: ['/src/plugins/webhooks/admin/WebhookCreator#WebhookCreator'] },
  },
  access: { read: can('webhooks.manage'), create: can('webhooks.manage'), update: can('webhooks.manage'), delete: can('webhooks.manage') },
  defaultSort: '-createdAt',
  hooks: { beforeChange: [issueWebhookSecret], afterRead: [showSecretOnce] },
  fields: [
    { name: 'actions', type: 'ui', admin: { position: 'sidebar', components: { Field: '/src/plugins/webhooks/admin/WebhookActions#WebhookActions' } } },
    { name: 'url', type: 'text', required: true, maxLength: 2000, validate: validWebhookUrl, admin: { description: bothLanguages('admin.field.webhooks.url') } },
    { name: 'events', type: 'json', required: true, validate: validEvents, admin: { description: bothLanguages('admin.field.webhooks.events', { events: WEBHOOK_EVENTS.join(', ') }) } },
    { name: 'description', type: 'textarea', maxLength: 500 },
    { name: 'enabled', type: 'checkbox', defaultValue: true, admin: { position: 'sidebar' } },
    { name: 'owner', type: 'relationship', relationTo: 'users', index: true, admin: { readOnly: true, position: 'sidebar' }, access: serverOwned },
    { name: 'secret', type: 'text', hidden: true, access: serverOwned },
    { name: 'previousSecret', type: 'text', hidden: true, access: serverOwned },
    { name: 'previousSecretUntil', type: 'date', admin: { readOnly: true, position: 'sidebar', description: bothLanguages('admin.field.webhooks.previousSecretUntil') }, access: serverOwned },
    { name: 'failingSince', type: 'date', admin: { readOnly: true, position: 'sidebar', description: bothLanguages('admin.field.webhooks.failingSince') }, access: serverOwned },
    { name: 'disabledReason', type: 'text', admin: { readOnly: true, position: 'sidebar' }, access: serverOwned },
  ],
}
