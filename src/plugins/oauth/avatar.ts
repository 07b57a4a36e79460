/**
 * The provider's profile picture as the new user's avatar, best effort: a
 * failure (slow host, too large, not an image) leaves the user without one
 * and never fails the sign-in. Only https addresses are fetched, or an
 * address on the provider's own configured origin (a loopback test server),
 * without following redirects; the bytes are checked like an upload's.
 */
import type { Payload } from 'payload'

import { avatarFileName, sniffAvatar } from '../../lib/avatarImage'

async function readCapped(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes || !response.body) return undefined
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > maxBytes) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

export async function importProviderAvatar(
  payload: Payload,
  { userId, name, url, providerOrigins, timeoutMs, maxBytes }: { userId: number; name: string; url: string; providerOrigins: string[]; timeoutMs: number; maxBytes: number },
): Promise<void> {
  try {
    const address = new URL(url)
    if (address.protocol !== 'https:' && !providerOrigins.includes(address.origin)) return
    const response = await fetch(address, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' })
    if (!response.ok) return
    const bytes = await readCapped(response, maxBytes)
    const kind = bytes && (await sniffAvatar(bytes))
    if (!bytes || !kind) return
    const media = await payload.create({
      collection: 'media',
      data: { alt: `Avatar of ${name}` },
      file: { data: bytes, mimetype: kind.mime, name: avatarFileName('avatar', kind.ext), size: bytes.length },
      overrideAccess: true,
    })
    await payload.update({ collection: 'users', id: userId, data: { avatar: media.id }, overrideAccess: true })
  } catch (error) {
    payload.logger.warn({ msg: 'OAuth: the provider’s profile picture could not be used as the avatar', err: { name: (error as Error)?.name } })
  }
}
