/**
 * Uploads an image to the Media collection with the admin's own session
 * (POST /api/media, multipart) and returns its Markdown, or throws an Error
 * whose message can be shown to the writer as is, in the language of `t`
 * (the admin user's: the catalogs of src/lib/i18n).
 */
import { translator, type Translate } from '../../../../lib/i18n'

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif']
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024

export class UploadError extends Error {}

function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`
}

/** Refuses, before any network, what the server would refuse anyway. */
export function checkImage(file: File, t: Translate = translator('en')): void {
  if (!IMAGE_TYPES.includes(file.type)) {
    throw new UploadError(t('editor.notImage', { name: file.name }))
  }
  if (file.size > MAX_IMAGE_BYTES) {
    throw new UploadError(t('editor.tooBig', { name: file.name, size: describeSize(file.size), max: describeSize(MAX_IMAGE_BYTES) }))
  }
}

export function altTextOf(file: File): string {
  return file.name.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ').trim() || 'image'
}

/** Same-origin uploads are linked by path, so articles survive a change of domain. */
function sitePath(url: string): string {
  try {
    const parsed = new URL(url, window.location.origin)
    return parsed.origin === window.location.origin ? parsed.pathname + parsed.search : parsed.href
  } catch {
    return url
  }
}

export async function uploadImage(file: File, apiRoute = '/api', t: Translate = translator('en')): Promise<{ url: string; alt: string }> {
  checkImage(file, t)
  const alt = altTextOf(file)
  const form = new FormData()
  form.append('file', file, file.name || 'pasted-image.png')
  form.append('_payload', JSON.stringify({ alt }))
  let response: Response
  try {
    response = await fetch(`${apiRoute}/media`, { method: 'POST', body: form, credentials: 'include' })
  } catch {
    throw new UploadError(t('editor.noAnswer', { name: file.name }))
  }
  const body = (await response.json().catch(() => ({}))) as {
    doc?: { url?: string | null }
    errors?: { message?: string }[]
  }
  if (!response.ok || !body.doc?.url) {
    const reason = body.errors?.map((e) => e.message).filter(Boolean).join(' ') || t('editor.serverAnswered', { status: String(response.status) })
    if (response.status === 413) throw new UploadError(t('editor.tooBigForServer', { name: file.name }))
    throw new UploadError(t('editor.uploadFailed', { name: file.name, reason }))
  }
  return { url: sitePath(body.doc.url), alt }
}
