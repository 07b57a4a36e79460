import { describe, expect, it } from 'vitest'

import { passwordResetMail } from '../../src/lib/accountMail'
import { avatarFileName } from '../../src/lib/avatarImage'
import { buildEnv, ConfigError } from '../../src/lib/env'
import { passwordProblem } from '../../src/lib/password'
import { safeRedirect } from '../../src/lib/safeRedirect'

describe('safeRedirect', () => {
  it.each([
    ['/profile', '/profile'],
    ['/articles/3/x?y=1#z', '/articles/3/x?y=1#z'],
    ['https://evil.test', '/'],
    ['//evil.test', '/'],
    ['/\\evil.test', '/'],
    ['/\t/evil.test', '/'],
    ['javascript:alert(1)', '/'],
    ['evil.test', '/'],
    [undefined, '/'],
  ])('%s → %s', (next, expected) => expect(safeRedirect(next)).toBe(expected))
})

describe('passwordProblem', () => {
  it('wants 12 to 128 characters and not a common password', () => {
    expect(passwordProblem('short-secret')).toBeUndefined()
    expect(passwordProblem('short-secre')).toMatch(/at least 12/)
    expect(passwordProblem('xyz'.repeat(43))).toMatch(/at most 128/)
    expect(passwordProblem('xyz'.repeat(42) + 'ab')).toBeUndefined()
    expect(passwordProblem('aaaaaaaaaaaaaa')).toMatch(/too common/)
    // On the common-password list shipped by @zxcvbn-ts/language-common, also with separators.
    expect(passwordProblem('password1234')).toMatch(/too common/)
    expect(passwordProblem('Qwerty.1234.5')).toMatch(/too common/)
    expect(passwordProblem('')).toMatch(/Choose/)
    expect(passwordProblem('correct horse battery staple')).toBeUndefined()
  })
})

describe('passwordResetMail', () => {
  it('has the site name, a text and an HTML part, and an absolute escaped link', () => {
    const mail = passwordResetMail({ siteName: 'My <Blog>', baseUrl: 'https://blog.example', token: 'a b', name: 'Ada' })
    expect(mail.subject).toBe('Reset your My <Blog> password')
    expect(mail.text).toContain('https://blog.example/password/reset?token=a%20b')
    expect(mail.html).toContain('My &lt;Blog&gt;')
    expect(mail.html).toContain('href="https://blog.example/password/reset?token=a%20b"')
  })
})

describe('avatarFileName', () => {
  it('keeps a safe base name and uses the sniffed extension', () => {
    expect(avatarFileName('my photo.gif', 'png')).toBe('my-photo.png')
    expect(avatarFileName('../../etc/passwd', 'jpg')).toBe('passwd.jpg')
    expect(avatarFileName('.png', 'webp')).toBe('avatar.webp')
  })
})

const envWith = (vars: Record<string, string>) => buildEnv({ PAYLOAD_SECRET: 'x'.repeat(32), ...vars } as unknown as NodeJS.ProcessEnv)

describe('AVATAR_MAX_BYTES', () => {
  it('defaults to 5 MB and names itself when wrong', () => {
    expect(envWith({}).avatarMaxBytes).toBe(5 * 1024 * 1024)
    expect(() => envWith({ AVATAR_MAX_BYTES: 'lots' })).toThrow(ConfigError)
    expect(() => envWith({ AVATAR_MAX_BYTES: 'lots' })).toThrow(/AVATAR_MAX_BYTES/)
  })
})
