/** Issue 27 item 7: the reader site's pages answer a post that is not a readable form with 415 or 400, not the 500 a page's formData() threw. */
import { describe, expect, it } from 'vitest'

import { refuseUnreadableFormPost } from '../../frontend/src/lib/formPosts'

const post = (body: BodyInit | null, type?: string) =>
  new Request('http://localhost:3000/profile', { method: 'POST', body, headers: type ? { 'content-type': type } : {} })

describe('posts to the reader site’s pages', () => {
  it('a JSON post answers 415 naming the forms to send', async () => {
    const answer = await refuseUnreadableFormPost(post('{"name":"x"}', 'application/json'))
    expect(answer?.status).toBe(415)
    expect(await answer!.text()).toMatch(/application\/x-www-form-urlencoded or multipart\/form-data, not application\/json/)
    expect(answer!.headers.get('cache-control')).toBe('no-store')
    expect((await refuseUnreadableFormPost(post('x')))?.status).toBe(415)
  })

  it('a body that does not match its Content-Type answers 400', async () => {
    const answer = await refuseUnreadableFormPost(post('not multipart at all', 'multipart/form-data; boundary=xyz'))
    expect(answer?.status).toBe(400)
  })

  it('lets real forms and reads through, and leaves the body for the page', async () => {
    const form = post(new URLSearchParams({ name: 'Ada' }).toString(), 'application/x-www-form-urlencoded')
    expect(await refuseUnreadableFormPost(form)).toBeUndefined()
    expect((await form.formData()).get('name')).toBe('Ada')
    const multipart = new FormData()
    multipart.set('form', 'avatar')
    expect(await refuseUnreadableFormPost(new Request('http://localhost:3000/profile', { method: 'POST', body: multipart }))).toBeUndefined()
    expect(await refuseUnreadableFormPost(new Request('http://localhost:3000/profile'))).toBeUndefined()
  })
})
