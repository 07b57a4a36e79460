/**
 * The provider's profile picture as the new user's avatar, best effort: a
 * failure (slow host, too large, not an image, a refused address) leaves the
 * user without one and never fails the sign-in. The address comes from the
 * provider's answer, so it is fetched through the guarded outbound fetch
 * (src/lib/outboundFetch.ts): public hosts only unless OUTBOUND_ALLOW_PRIVATE,
 * each redirect hop checked again, time and bytes capped while reading. Only
 * https addresses are taken, or an address on the provider's own configured
 * origin (a loopback test server); the bytes are checked like an upload's.
 */
import type { Payload } from 'payload'

import { avatarFileName, sniffAvatar } from '../../lib/avatarImage'
import { outboundFetch, type OutboundPolicy } from '../../lib/outboundFetch'

/** Redirects an avatar host may use (CDNs do), each one checked like the first address. */
const AVATAR_REDIRECTS = 3

export async function importProviderAvatar(
  payload: Payload,
  {
    userId,
    name,
    url,
    providerOrigins,
    timeoutMs,
    maxBytes,
    outbound,
  }: { userId: number; name: string; url: string; providerOrigins: string[]; timeoutMs: number; maxBytes: number; outbound: OutboundPolicy },
): Promise<void> {
  try {
    const address = new URL(url)
    if (address.protocol !== 'https:' && !providerOrigins.includes(address.origin)) return
    const response = await outboundFetch(address, outbound, { timeoutMs, maxBytes, maxRedirects: AVATAR_REDIRECTS })
    if (response.status < 200 || response.status > 299) return
    const bytes = response.body
    const kind = await sniffAvatar(bytes)
    if (!kind) return
    const media = await payload.create({
      collection: 'media',
      data: { alt: `Avatar of ${name}` },
      file: { data: bytes, mimetype: kind.mime, name: avatarFileName('avatar', kind.ext), size: bytes.length },
      overrideAccess: true,
    })
    await payload.update({ collection: 'users', id: userId, data: { avatar: media.id }, overrideAccess: true })
  } catch (error) {
    payload.logger.warn({ msg: 'OAuth: the provider’s profile picture could not be used as the avatar', err: { name: (error as Error)?.name, code: (error as { code?: unknown })?.code } })
  }
}
