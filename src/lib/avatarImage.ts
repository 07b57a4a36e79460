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

/** The patterns applied to an uploaded file's name (listed in tests/unit/redos.test.ts). */
export const AVATAR_NAME_PATTERNS = {
  directory: /[\\/]/,
  extension: /\.[^.]*$/,
  unsafe: /[^\w-]+/g,
}

/** Dashes off both ends without a pattern: `-+$` would rescan a run of dashes from each of its starts. */
function trimDashes(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && text[start] === '-') start++
  while (end > start && text[end - 1] === '-') end--
  return text.slice(start, end)
}

/** Longest part of a client's file name that is looked at: the stored name keeps 60 characters anyway. */
const NAME_LOOKED_AT = 200

/** A safe stored name: the user's base name (letters, digits, dashes) with the sniffed extension (media uploads use it too). */
export function avatarFileName(original: string, ext: string, fallback = 'avatar'): string {
  const p = AVATAR_NAME_PATTERNS
  const last = (original.split(p.directory).pop() ?? '').slice(-NAME_LOOKED_AT)
  const base = trimDashes(last.replace(p.extension, '').replace(p.unsafe, '-')).slice(0, 60)
  return `${base || fallback}.${ext}`
}
