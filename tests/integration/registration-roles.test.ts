import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import type { User } from '../../src/payload-types'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { register, roleId } from '../helpers/users'

let t: TestPayload
beforeAll(async () => {
  t = await createTestPayload()
})
afterAll(() => t?.destroy())

async function roleSlugs(user: User): Promise<string[]> {
  const fresh = await t.payload.findByID({ collection: 'users', id: user.id, depth: 1 })
  return (fresh.roles ?? []).map((r) => (typeof r === 'object' ? r.slug : String(r)))
}

async function clearUsers() {
  await t.payload.db.drizzle.execute('delete from users' as never)
}

describe('roles on registration', () => {
  beforeEach(clearUsers)

  it('gives the first user site owner, the second administrator, later ones the default role', async () => {
    const first = await register(t.payload, 'first@example.test')
    const second = await register(t.payload, 'second@example.test')
    const third = await register(t.payload, 'third@example.test')
    expect(await roleSlugs(first)).toEqual(['site-owner'])
    expect(await roleSlugs(second)).toEqual(['administrator'])
    expect(await roleSlugs(third)).toEqual(['reader'])
  })

  it('uses the default role chosen in site settings', async () => {
    await register(t.payload, 'first@example.test')
    await register(t.payload, 'second@example.test')
    await t.payload.updateGlobal({ slug: 'site-settings', data: { defaultRole: await roleId(t.payload, 'author') } })
    try {
      expect(await roleSlugs(await register(t.payload, 'third@example.test'))).toEqual(['author'])
    } finally {
      await t.payload.updateGlobal({ slug: 'site-settings', data: { defaultRole: null } })
    }
  })

  it('ignores roles sent by the registrant (mass assignment)', async () => {
    await register(t.payload, 'first@example.test')
    await register(t.payload, 'second@example.test')
    const sneaky = await register(t.payload, 'sneaky@example.test', { roles: [await roleId(t.payload, 'site-owner')] })
    expect(await roleSlugs(sneaky)).toEqual(['reader'])
  })

  it('makes exactly one site owner and one administrator under concurrent registrations', async () => {
    const users = await Promise.all(
      Array.from({ length: 6 }, (_, i) => register(t.payload, `racer${i}@example.test`)),
    )
    const slugs = await Promise.all(users.map(roleSlugs))
    const flat = slugs.flat()
    expect(flat.filter((s) => s === 'site-owner')).toHaveLength(1)
    expect(flat.filter((s) => s === 'administrator')).toHaveLength(1)
    expect(flat.filter((s) => s === 'reader')).toHaveLength(4)
  })
})
