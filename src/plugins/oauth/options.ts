/**
 * What the oauth plugin needs from the typed configuration (src/lib/env.ts).
 * The plugin keeps it in `config.custom.oauth` (server-only: Payload never sends
 * `custom` to the admin), because the route handlers are Next.js routes that
 * reach the plugin only through the Payload instance.
 */
import type { Payload } from 'payload'

import type { OutboundPolicy } from '../../lib/outboundFetch'
import { pluginOptionsOf } from '../pluginOptions'
import type { OAuthProviderSettings } from './settings'

export type OAuthOptions = {
  /** Allowed and configured, in OAUTH_ALLOWED_PROVIDERS' order. */
  providers: OAuthProviderSettings[]
  /** How long a provider may take to answer one request (OAUTH_TIMEOUT_MS). */
  timeoutMs: number
  secureCookies: boolean
  /** REGISTER_VERIFY_EMAIL: an address the provider did not prove is confirmed by mail first. */
  verifyEmail: boolean
  baseUrl: string
  /** The upload limit, applied to the provider's profile picture. */
  avatarMaxBytes: number
  /** OUTBOUND_ALLOW_PRIVATE: whether the profile picture may come from a private or loopback host. */
  outbound: OutboundPolicy
}

export const OAUTH_OPTIONS_KEY = 'oauth'

/** The options the plugin was given, or undefined when the plugin is not in the config (the routes then answer 404). */
export function oauthOptions(payload: Payload): OAuthOptions | undefined {
  return pluginOptionsOf<OAuthOptions>(payload, OAUTH_OPTIONS_KEY)
}
