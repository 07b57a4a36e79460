/**
 * Browser caching for files Payload (in Next) serves: Next's hashed build
 * assets never change, so they are immutable; uploaded media keep their URL
 * when replaced, so they are cached long but revalidated (ETag/Last-Modified).
 * Applied only where the response set no Cache-Control of its own (an upload
 * whose access is restricted keeps whatever Payload says).
 */
import type { ServerResponse } from 'node:http'

const IMMUTABLE = 'public, max-age=31536000, immutable'
const MEDIA = 'public, max-age=86400, must-revalidate'

export function cacheControlFor(pathname: string): string | undefined {
  if (pathname.startsWith('/_next/static/')) return IMMUTABLE
  if (pathname.startsWith('/api/media/file/')) return MEDIA
  return undefined
}

export function withDefaultCacheControl(res: ServerResponse, pathname: string): void {
  const value = cacheControlFor(pathname)
  if (!value) return
  const writeHead = res.writeHead
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    const status = args[0]
    if (status === 200 || status === 304) {
      const given = typeof args[1] === 'object' && !Array.isArray(args[1]) ? (args[1] as Record<string, unknown>) : undefined
      const hasOwn = this.hasHeader('cache-control') || Object.keys(given ?? {}).some((k) => k.toLowerCase() === 'cache-control')
      if (!hasOwn) this.setHeader('cache-control', value)
    }
    return writeHead.apply(this, args)
  } as ServerResponse['writeHead']
}
