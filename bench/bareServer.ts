/**
 * The bench's baseline: a bare Node `http` server answering fixed bytes from
 * memory, one response per path, with the headers the real page carries.
 * Started as its own process (like the web process) by bench/reader-site.ts:
 *   node bench/bareServer.ts <port> <responses.json>
 * where responses.json maps a path to { headers, bodyBase64 }.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'

const [port, file] = process.argv.slice(2)
const responses = new Map<string, { headers: Record<string, string>; body: Buffer }>()
for (const [path, r] of Object.entries(JSON.parse(readFileSync(file!, 'utf8')) as Record<string, { headers: Record<string, string>; bodyBase64: string }>)) {
  const body = Buffer.from(r.bodyBase64, 'base64')
  responses.set(path, { headers: { ...r.headers, 'content-length': String(body.length) }, body })
}
const server = http.createServer((req, res) => {
  const r = responses.get(req.url ?? '/')
  if (!r) return void res.writeHead(404).end()
  res.writeHead(200, r.headers)
  res.end(r.body)
})
server.keepAliveTimeout = 65_000
server.listen(Number(port), '127.0.0.1', () => console.log('ready'))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
