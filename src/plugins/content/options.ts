/**
 * What the composition gives the content plugin that its collections' hooks
 * need at save time: how rendered bodies and replies mark external links.
 */
import type { Payload } from 'payload'

import { DEFAULT_LINK_POLICY, type LinkPolicy } from '../../lib/sanitize'
import { pluginOptionsOf } from '../pluginOptions'

export const CONTENT_KEY = 'content'

export type ContentOptions = {
  /** Where uploads are stored. */
  mediaDir: string
  /** EXTERNAL_LINK_REL and the site's origin (BASE_URL). */
  links: LinkPolicy
}

/** The link policy the content plugin was composed with (the defaults where it was not). */
export function linkPolicyOf(payload: Payload): LinkPolicy {
  return pluginOptionsOf<ContentOptions>(payload, CONTENT_KEY)?.links ?? DEFAULT_LINK_POLICY
}
