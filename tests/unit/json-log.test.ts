/**
 * The operational log's standard output: lines batched per turn of the event
 * loop (one write for many requests), in order, none lost when the process
 * exits straight after logging. Run in a child process, whose real stdout is read.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { redactCredentials, redactLogValue } from '../../src/lib/redactCredentials'

const root = path.resolve(import.meta.dirname, '../..')

function runChild(script: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 })
  if (result.status !== 0) throw new Error(`child exited ${result.status}: ${result.stderr}`)
  return result
}

describe('the JSON log on standard output', () => {
  it('writes a burst of lines in one write, in order', () => {
    const { stdout, stderr } = runChild(`
      const { logLine } = await import('./src/lib/jsonLog.ts')
      let writes = 0
      const write = process.stdout.write.bind(process.stdout)
      process.stdout.write = (chunk, ...rest) => { writes++; return write(chunk, ...rest) }
      for (let i = 0; i < 500; i++) logLine({ msg: 'request', n: i })
      setTimeout(() => process.stderr.write('writes=' + writes), 200)
    `)
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { n: number })
    expect(lines.map((l) => l.n)).toEqual(Array.from({ length: 500 }, (_, i) => i))
    expect(Number(/writes=(\d+)/.exec(stderr)?.[1])).toBe(1)
  })

  it('loses no line when the process exits in the same turn', () => {
    const { stdout } = runChild(`
      const { logLine } = await import('./src/lib/jsonLog.ts')
      for (let i = 0; i < 50; i++) logLine({ msg: 'job', n: i })
      process.exit(0)
    `)
    expect(stdout.trim().split('\n')).toHaveLength(50)
  })

  it('still redacts every form of credential, and leaves lines without one as they are', () => {
    expect(redactCredentials('GET /a?ACCESS_TOKEN=secret&b=1')).toBe('GET /a?ACCESS_TOKEN=[REDACTED]&b=1')
    expect(redactCredentials('authorization: Bearer abc.def')).toBe('authorization: Bearer [REDACTED]')
    expect(redactCredentials('id iwt_abcdefabcdef_AAAA')).toBe('id iwt_[REDACTED]')
    const plain = '/articles/12/a-slug?page=2'
    expect(redactCredentials(plain)).toBe(plain)
  })

  it('copies a record only when something in it is redacted, and never changes the original', () => {
    const clean = { msg: 'request', route: 'article', status: 200, tags: ['a', 'b'] }
    expect(redactLogValue(clean)).toBe(clean)
    const dirty = { msg: 'request', nested: { url: '/x?access_token=abc', list: ['ok', 'Bearer tok.en'] } }
    expect(redactLogValue(dirty)).toEqual({ msg: 'request', nested: { url: '/x?access_token=[REDACTED]', list: ['ok', 'Bearer [REDACTED]'] } })
    expect(dirty.nested.url).toBe('/x?access_token=abc')
    expect(dirty.nested.list[1]).toBe('Bearer tok.en')
  })

  it('writes the request line as logLine would, and anything unusual in it the general way', () => {
    const { stdout } = runChild(`
      const { logLine, logRequest } = await import('./src/lib/jsonLog.ts')
      const record = { method: 'GET', route: 'article', status: 200, durationMs: 3, cache: 'hit', requestId: 'f0e1d2c3-b4a5-4678-9abc-def012345678' }
      logRequest(record)
      logLine({ msg: 'request', ...record })
      logRequest({ ...record, cache: undefined })
      logLine({ msg: 'request', ...record, cache: undefined })
      logRequest({ ...record, method: 'GE"T', requestId: 'Bearer tok.en' })
    `)
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    const withoutTime = ({ time, ...rest }: Record<string, unknown>) => (expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), rest)
    // The same fields, in the same order, as the general path writes (so log pipelines see one shape).
    expect(JSON.stringify(withoutTime(lines[0]!))).toBe(JSON.stringify(withoutTime(lines[1]!)))
    expect(JSON.stringify(withoutTime(lines[2]!))).toBe(JSON.stringify(withoutTime(lines[3]!)))
    expect(lines[2]).not.toHaveProperty('cache')
    // A quote in the method is escaped, a credential-looking id redacted: the general path.
    expect(lines[4]).toMatchObject({ method: 'GE"T', requestId: 'Bearer [REDACTED]' })
  })
})
