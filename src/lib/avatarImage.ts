/**
 * What an uploaded avatar really is, from its bytes: JPEG, PNG, WebP or GIF.
 * The file name and the browser's Content-Type are ignored, so an HTML page
 * named `.png` is refused and a PNG named `.gif` is stored as a PNG.
 */
import { fileTypeFromBuffer } from 'file-type'

export const AVATAR_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
}

export async function sniffAvatar(data: Uint8Array): Promise<{ mime: string; ext: string } | undefined> {
  const type = await fileTypeFromBuffer(data)
  if (!type || !AVATAR_TYPES[type.mime]) return undefined
  return { mime: type.mime, ext: AVATAR_TYPES[type.mime]! }
}

/** A safe stored name: the user's base name (letters, digits, dashes) with the sniffed extension. */
export function avatarFileName(original: string, ext: string): string {
  const base = (original.split(/[\\/]/).pop() ?? '')
    .replace(/\.[^.]*$/, '').replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60)
  return `${base || 'avatar'}.${ext}`
}
