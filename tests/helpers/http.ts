/** Small HTTP helpers for tests that talk to a running app. */
export async function logIn(baseUrl: string, email: string, password = 'inkwell-demo'): Promise<{ token: string; cookie: string }> {
  const response = await fetch(`${baseUrl}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (!response.ok) throw new Error(`login ${email} failed: ${response.status} ${await response.text()}`)
  const { token } = (await response.json()) as { token: string }
  return { token, cookie: `payload-token=${token}` }
}

export async function api<T = unknown>(baseUrl: string, path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers = new Headers(init.headers)
  if (init.token) headers.set('authorization', `JWT ${init.token}`)
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json')
  const response = await fetch(baseUrl + '/api' + path, { ...init, headers })
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} → ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}

export async function page(baseUrl: string, path: string, init: RequestInit = {}) {
  const response = await fetch(baseUrl + path, { redirect: 'manual', ...init })
  return { status: response.status, headers: response.headers, body: await response.text() }
}
