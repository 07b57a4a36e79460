import { describe, expect, it } from 'vitest'

import { cookieFrom, hostName, signSwitch, switcherActive, verifySwitch } from '../../src/plugins/userSwitch/switchCookie'

const on = { debug: true, production: false }

describe('where the user switcher is active', () => {
  it.each(['inkwell.test', 'inkwell.test:3000', 'INKWELL.TEST', 'blog.dev', 'my.blog.local:8080', 'inkwell.test.'])('%s with APP_DEBUG=true → active', (host) => {
    expect(switcherActive(on, host)).toBe(true)
  })

  it.each(['example.com', 'localhost', 'localhost:3000', '127.0.0.1', '[::1]:3000', 'test', 'inkwell.testing', 'test.example.com', 'dev.example.org', '', undefined])(
    '%s → inactive',
    (host) => {
      expect(switcherActive(on, host)).toBe(false)
    },
  )

  it('APP_DEBUG=false or NODE_ENV=production turn it off on any host', () => {
    expect(switcherActive({ debug: false, production: false }, 'inkwell.test')).toBe(false)
    expect(switcherActive({ debug: true, production: true }, 'inkwell.test')).toBe(false)
  })

  it('reads host names without port or trailing dot', () => {
    expect(hostName('Inkwell.Test:3000')).toBe('inkwell.test')
    expect(hostName('[::1]:3000')).toBe('::1')
    expect(hostName('a.dev.')).toBe('a.dev')
  })
})

describe('the switch cookie', () => {
  const secret = 'a-secret-of-sixteen-or-more'
  const claim = { ownerId: 1, sid: 'abc-123', targetId: 5 }

  it('round-trips what it signed', () => {
    expect(verifySwitch(secret, signSwitch(secret, claim))).toEqual(claim)
  })

  it('refuses another key, a changed claim, a changed signature and garbage', () => {
    const value = signSwitch(secret, claim)
    const [body, signature] = value.split('.')
    const otherBody = Buffer.from(JSON.stringify([1, 'abc-123', 6])).toString('base64url')
    expect(verifySwitch('another-secret-of-sixteen', value)).toBeUndefined()
    expect(verifySwitch(secret, `${otherBody}.${signature}`)).toBeUndefined()
    expect(verifySwitch(secret, `${body}.${signature!.slice(0, -2)}AA`)).toBeUndefined()
    for (const junk of ['', '.', 'a.b', `${value}.x`, 'x'.repeat(1000), undefined]) expect(verifySwitch(secret, junk)).toBeUndefined()
  })

  it('reads one cookie from a Cookie header, tolerating bad encoding', () => {
    const headers = new Headers({ cookie: 'a=1; inkwell-switch=v%2E1; b=%E0%A4%A' })
    expect(cookieFrom(headers, 'inkwell-switch')).toBe('v.1')
    expect(cookieFrom(headers, 'b')).toBeUndefined()
    expect(cookieFrom(headers, 'missing')).toBeUndefined()
  })
})
