/**
 * The admin shows a related document by its title field (issue 26): the
 * relationship input loads the selected tags and author with a POST that
 * carries the query as a form body and `X-Payload-HTTP-Method-Override: GET`.
 * The app's body-normalising step used to turn that form into JSON, the query
 * was lost, and the admin showed "Untitled - ID: 8". Every collection names
 * the field the admin shows it by.
 */
import * as qs from 'qs-esm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { cli } from '../helpers/cliClient'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let jwt: string
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
  jwt = (await t.payload.login({ collection: 'users', data: { email: 'owner@example.test', password: PASSWORD } })).token!
})
afterAll(async () => {
  await t?.destroy()
})

/** What @payloadcms/ui's relationship input sends for the selected ids it has not loaded yet. */
async function loadSelected(collection: string, titleField: string, ids: number[]) {
  const query = { depth: 0, draft: true, limit: ids.length, select: { [titleField]: true }, where: { id: { in: ids } } }
  return cli(t.payload, t.databaseName, `/api/${collection}`, {
    method: 'POST',
    headers: { authorization: `JWT ${jwt}`, 'content-type': 'application/x-www-form-urlencoded', 'x-payload-http-method-override': 'GET' },
    body: qs.stringify(query),
  })
}

describe('the admin’s titles of related documents', () => {
  it('loads the selected tags and the author by id, with their title field', async () => {
    const tags = await Promise.all(['Alpha', 'Beta', 'Gamma'].map((name) => t.payload.create({ collection: 'tags', data: { name } })))
    const chosen = [tags[2]!.id, tags[0]!.id]
    const answer = await loadSelected('tags', 'name', chosen)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    // By id, as numbers: the three are created at once, so which gets which id varies, and a plain
    // sort() compares "10,…" before "8,…" once the ids cross a digit.
    const byId = (a: [number, string], b: [number, string]) => a[0] - b[0]
    expect(answer.body.docs.map((d: { id: number; name: string }) => [d.id, d.name]).sort(byId)).toEqual(
      ([[tags[0]!.id, 'Alpha'], [tags[2]!.id, 'Gamma']] as [number, string][]).sort(byId),
    )
    const author = await loadSelected('users', 'name', [cast.author.id])
    expect(author.body.docs).toEqual([expect.objectContaining({ id: cast.author.id, name: cast.author.name })])
  })

  it('every collection names a title field the admin uses, and it is a field of the collection', () => {
    // Payload's own collections (preferences, migrations, locks) are not shown as related documents.
    for (const collection of t.payload.config.collections.filter((c) => !c.slug.startsWith('payload-'))) {
      const title = collection.admin?.useAsTitle
      expect(title && title !== 'id', `${collection.slug} has no admin.useAsTitle`).toBeTruthy()
      expect(collection.flattenedFields.some((f) => f.name === title), `${collection.slug}.${title}`).toBe(true)
    }
  })
})
