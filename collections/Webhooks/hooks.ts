import type { CollectionAfterReadHook, CollectionBeforeChangeHook, Validate } from 'payload'

import { validationTranslator } from '../../src/lib/i18n/request'
import { newWebhookSecret } from '../../src/plugins/webhooks/signing'
import { pluginOptionsOf } from '../../src/plugins/pluginOptions'
import { WEBHOOKS_KEY, type WebhooksOptions } from '../../src/plugins/webhooks/options'

const ISSUED = 'issuedWebhookSecret'

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

/** https; http only to a loopback host, and only when OUTBOUND_ALLOW_PRIVATE=true (tests, development). */
export const validWebhookUrl: Validate = (value, { req }) => {
  const t = validationTranslator(req)
  let url: URL
  try {
    url = new URL(String(value ?? ''))
  } catch {
    return t('validation.webhookAddress')
  }
  if (url.username || url.password) return t('validation.webhookCredentials')
  if (url.protocol === 'https:') return true
  const allowPrivate = pluginOptionsOf<WebhooksOptions>(req.payload, WEBHOOKS_KEY)?.outbound.allowPrivate
  if (url.protocol === 'http:' && allowPrivate && LOOPBACK.has(url.hostname)) return true
  return t('validation.webhookHttps')
}

/** On create the server draws the secret and records the owner, whatever the client sent. */
export const issueWebhookSecret: CollectionBeforeChangeHook = ({ data, operation, req }) => {
  if (operation !== 'create') return data
  const secret = newWebhookSecret()
  req.context[ISSUED] = secret
  const owner = req.user?.collection === 'users' ? req.user.id : data.owner
  return { ...data, owner, secret, previousSecret: null, previousSecretUntil: null, failingSince: null, disabledReason: null }
}

/** The secret appears in the answer of the request that created the hook, and never again. */
export const showSecretOnce: CollectionAfterReadHook = ({ doc, req }) => {
  const secret = req.context[ISSUED] as string | undefined
  return secret && doc.secret === undefined ? { ...doc, secret } : doc
}
