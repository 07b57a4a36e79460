/** Which body limit applies to which request (issue 9, item 2); the e2e security test checks the 413s. */
import type { IncomingMessage } from 'node:http'

import { describe, expect, it } from 'vitest'

import { bodyLimitFor } from '../../src/server/bodyLimit'

const limits = { maxBodyBytes: 1024 * 1024, uploadMaxBytes: 10 * 1024 * 1024 }
const request = (url: string, type = 'application/json') => ({ url, headers: { 'content-type': type } }) as unknown as IncomingMessage
const upload = limits.uploadMaxBytes + 64 * 1024

describe('bodyLimitFor', () => {
  it('gives JSON and form bodies MAX_BODY_BYTES everywhere but articles and the admin', () => {
    for (const url of ['/api/replies', '/api/users/login', '/api/graphql', '/login', '/register', '/api/media']) {
      expect(bodyLimitFor(request(url), limits), url).toBe(limits.maxBodyBytes)
      expect(bodyLimitFor(request(url, 'application/x-www-form-urlencoded'), limits), url).toBe(limits.maxBodyBytes)
    }
  })

  it('gives multipart uploads to media and avatars the upload limit, and nothing else', () => {
    for (const url of ['/api/media', '/api/media/12?depth=0', '/api/accounts/avatar']) {
      expect(bodyLimitFor(request(url, 'multipart/form-data; boundary=x'), limits), url).toBe(upload)
    }
    for (const url of ['/api/replies', '/api/mediabank', '/register']) {
      expect(bodyLimitFor(request(url, 'multipart/form-data; boundary=x'), limits), url).toBe(limits.maxBodyBytes)
    }
  })

  it('gives article writes and the admin the upload limit (articles are large by design)', () => {
    for (const url of ['/api/articles', '/api/articles/3?depth=0', '/admin', '/admin/collections/articles/3']) {
      expect(bodyLimitFor(request(url), limits), url).toBe(upload)
    }
    expect(bodyLimitFor(request('/api/articlesx'), limits)).toBe(limits.maxBodyBytes)
  })
})
