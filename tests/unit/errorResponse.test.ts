/** One error shape (Payload's) from every custom endpoint, and the reader site's one parser of it (issue 25). */
import { describe, expect, it } from 'vitest'

import { errorBody, errorResponse } from '../../src/lib/errorResponse'
import { apiErrorOf } from '../../frontend/src/lib/api/errors'

describe('errorResponse', () => {
  it("answers Payload's shape: a message alone, or a ValidationError naming each field", async () => {
    expect(errorBody('Sign in first.')).toEqual({ errors: [{ message: 'Sign in first.' }] })
    const reply = errorResponse(400, { fields: { email: 'Enter your e-mail address.', password: 'Enter your password.' }, headers: { 'cache-control': 'no-store' } })
    expect(reply.status).toBe(400)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(await reply.json()).toEqual({
      errors: [{
        name: 'ValidationError',
        message: 'Enter your e-mail address.',
        data: { errors: [{ path: 'email', message: 'Enter your e-mail address.' }, { path: 'password', message: 'Enter your password.' }] },
      }],
    })
  })

  it("is read by the site's parser, as Payload's own answers are", async () => {
    const fields = apiErrorOf(await errorResponse(400, { fields: { token: 'This link is not valid.' } }).json())
    expect(fields).toEqual({ message: 'This link is not valid.', fields: { token: 'This link is not valid.' } })
    expect(apiErrorOf(await errorResponse(429, { message: 'Too many attempts.' }).json())).toEqual({ message: 'Too many attempts.', fields: {} })
    // What Payload itself answers for a collection's ValidationError.
    const payloads = { errors: [{ name: 'ValidationError', message: 'The following field is invalid: body', data: { collection: 'replies', errors: [{ path: 'body', message: 'A reply cannot be empty.' }] } }] }
    expect(apiErrorOf(payloads)).toEqual({ message: 'The following field is invalid: body', fields: { body: 'A reply cannot be empty.' } })
    expect(apiErrorOf({})).toEqual({ message: undefined, fields: {} })
  })
})
