/** The events a hook may subscribe to (docs/FEATURES.md, "Webhooks"). `ping` is sent from the admin to test a hook. */
export const WEBHOOK_EVENTS = [
  'article.published',
  'article.updated',
  'article.unpublished',
  'article.deleted',
  'article.scheduled',
  'reply.created',
  'reply.deleted',
  'user.registered',
  'category.created',
  'category.updated',
  'category.deleted',
  'tag.created',
  'tag.updated',
  'tag.deleted',
  'settings.updated',
  'ping',
] as const

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]
