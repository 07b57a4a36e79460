/**
 * The reader site's pages take posts only as the forms they render send them:
 * `application/x-www-form-urlencoded` or `multipart/form-data`. Anything else
 * (a JSON post to /profile, say) is the client's mistake: 415 naming what to
 * send, and a form body that cannot be read is a 400, where a page's
 * `formData()` used to throw a 500. Checked once, by the middleware, for every
 * page.
 */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data']

const plain = (status: number, message: string, extra: Record<string, string> = {}) =>
  new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra } })

export async function refuseUnreadableFormPost(request: Request): Promise<Response | undefined> {
  const method = request.method.toUpperCase()
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return undefined
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (!FORM_TYPES.includes(type)) {
    return plain(415, `The site's pages take forms: send application/x-www-form-urlencoded or multipart/form-data${type ? `, not ${type}` : ''}. The API is under /api.`, {
      accept: FORM_TYPES.join(', '),
    })
  }
  try {
    await request.clone().formData()
  } catch {
    return plain(400, 'The form could not be read: its body does not match its Content-Type.')
  }
  return undefined
}
