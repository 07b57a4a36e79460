/**
 * Issue 31, validation messages: the rules the collections write themselves
 * (a reply's body and article, a user's name and e-mail) answer a REST request
 * in its language — the signed-in user's choice (the profile's `language`),
 * else Accept-Language — naming the field, and in English by default. Payload's
 * own sentence around them ("The following field is invalid") follows its
 * admin language, which is not this test's concern.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestPayload, type TestPayload } from '../helpers/payload'
import { Browser } from '../helpers/restClient'
import { createCast, PASSWORD } from '../helpers/users'

let t: TestPayload
let cast: Awaited<ReturnType<typeof createCast>>
let articleId: number
const tokens = new Map<string, string>()

beforeAll(async () => {
  t = await createTestPayload({ QUEUE_CONNECTION: 'sync' })
  cast = await createCast(t.payload)
  articleId = (await t.payload.create({ collection: 'articles', data: { title: 'Validation', format: 'markdown', markdown: 'Body', status: 'published', author: cast.author.id } })).id
})
afterAll(async () => {
  await t?.destroy()
})

/** The reader's profile language: null means "not chosen", so the request's Accept-Language decides. */
const setLanguage = (id: number, language: 'en' | 'zh-CN' | null) => t.payload.update({ collection: 'users', id, data: { language } as never })

async function rest(email: string, method: string, path: string, json: unknown, headers: Record<string, string> = {}) {
  if (!tokens.has(email)) tokens.set(email, (await t.payload.login({ collection: 'users', data: { email, password: PASSWORD } })).token!)
  const response = await new Browser(t.payload, t.databaseName).request(`/api${path}`, { method, json, headers: { authorization: `JWT ${tokens.get(email)}`, ...headers } })
  return { status: response.status, body: (await response.json()) as { errors?: { message: string; data?: { errors?: { path: string; message: string }[] } }[] } }
}

/** The field errors of a 400 answer, as path → message. */
const fieldErrors = (body: Awaited<ReturnType<typeof rest>>['body']) => Object.fromEntries((body.errors?.[0]?.data?.errors ?? []).map((e) => [e.path, e.message]))

describe('validation messages in the request’s language', () => {
  it('a reply with an empty body: Chinese with Accept-Language zh-CN, English by default, naming the field', async () => {
    await setLanguage(cast.reader.id, null)
    const chinese = await rest('reader@example.test', 'POST', '/replies', { article: articleId, body: '  \u200b ' }, { 'accept-language': 'zh-CN,zh;q=0.9' })
    expect(chinese.status).toBe(400)
    expect(fieldErrors(chinese.body)).toEqual({ body: '回复不能为空。' })
    // The answer's sentence names the field by its label (the project's errorResponse), then the rule:
    // the label is the catalogs' too (src/plugins/languages/fieldLabels.ts), in the language Payload chose.
    expect(chinese.body.errors![0]!.message).toBe('正文: 回复不能为空。')

    const english = await rest('reader@example.test', 'POST', '/replies', { article: articleId, body: '' })
    expect(english.status).toBe(400)
    expect(fieldErrors(english.body)).toEqual({ body: 'A reply cannot be empty.' })
    expect(english.body.errors![0]!.message).toBe('Body: A reply cannot be empty.')
  })

  it('follows the user’s own choice before the browser’s', async () => {
    await setLanguage(cast.reader.id, 'zh-CN')
    const answer = await rest('reader@example.test', 'POST', '/replies', { article: 999_999, body: 'Hello' }, { 'accept-language': 'en' })
    expect(answer.status).toBe(400)
    expect(fieldErrors(answer.body)).toEqual({ article: '只能回复你能阅读的已发布文章。' })

    await setLanguage(cast.reader.id, 'en')
    const english = await rest('reader@example.test', 'POST', '/replies', { article: 999_999, body: 'Hello' }, { 'accept-language': 'zh-CN' })
    expect(fieldErrors(english.body)).toEqual({ article: 'You can only reply to a published article you can read.' })
  })

  it('a user’s name and e-mail rules, with their parameters filled', async () => {
    await setLanguage(cast.reader.id, null)
    const path = `/users/${cast.reader.id}`
    const chinese = await rest('reader@example.test', 'PATCH', path, { name: 'Two\nlines' }, { 'accept-language': 'zh-CN' })
    expect(chinese.status).toBe(400)
    expect(fieldErrors(chinese.body)).toEqual({ name: '名字必须是一行可见文字：请删除换行或控制字符 U+000A。' })

    const english = await rest('reader@example.test', 'PATCH', path, { name: 'Two\nlines' })
    expect(fieldErrors(english.body)).toEqual({ name: 'A name is one line of visible text: remove the line break or control character U+000A.' })

    const email = await rest('admin@example.test', 'POST', '/users', { email: 'not-an-address', password: PASSWORD, name: 'X' }, { 'accept-language': 'zh-CN' })
    expect(email.status).toBe(400)
    expect(fieldErrors(email.body).email).toBe('请输入有效的邮箱地址。')
  })

  it('a webhook’s address and events', async () => {
    const answer = await rest('owner@example.test', 'POST', '/webhooks', { url: 'http://example.com/hook', events: [] }, { 'accept-language': 'zh-CN' })
    expect(answer.status).toBe(400)
    expect(fieldErrors(answer.body)).toMatchObject({ url: '地址必须使用 https。', events: '请至少选择一个事件。' })
  })
})

/**
 * The refusals the project's hooks throw (password policy, credential changes,
 * the last site owner, a body Payload cannot read) answer in the request's
 * language too, and in English by default.
 */
describe('hook and API errors in the request’s language', () => {
  const message = (body: Awaited<ReturnType<typeof rest>>['body']) => body.errors?.[0]?.message

  it('the password policy, naming the field', async () => {
    await setLanguage(cast.reader.id, null)
    const path = `/users/${cast.reader.id}`
    const chinese = await rest('reader@example.test', 'PATCH', path, { password: 'short', currentPassword: PASSWORD }, { 'accept-language': 'zh-CN' })
    expect(chinese.status).toBe(400)
    expect(fieldErrors(chinese.body)).toEqual({ password: '密码至少 12 个字符。' })
    const english = await rest('reader@example.test', 'PATCH', path, { password: 'short', currentPassword: PASSWORD })
    expect(fieldErrors(english.body)).toEqual({ password: 'Use at least 12 characters for the password.' })
  })

  it('credential changes: the current password, and nobody changes another’s', async () => {
    const own = await rest('reader@example.test', 'PATCH', `/users/${cast.reader.id}`, { email: 'new@example.test', currentPassword: 'wrong-password-1' }, { 'accept-language': 'zh-CN' })
    expect(own.status).toBe(400)
    expect(fieldErrors(own.body)).toEqual({ currentPassword: '修改邮箱或密码需要输入当前密码。' })

    const chinese = await rest('admin@example.test', 'PATCH', `/users/${cast.reader.id}`, { email: 'taken@example.test' }, { 'accept-language': 'zh-CN' })
    expect(chinese.status).toBe(403)
    expect(message(chinese.body)).toBe('任何人都不能设置他人的密码或邮箱地址；请改为向对方发送密码重置链接。')
    const english = await rest('admin@example.test', 'PATCH', `/users/${cast.reader.id}`, { email: 'taken@example.test' })
    expect(english.status).toBe(403)
    expect(message(english.body)).toBe("Nobody sets another user's password or e-mail address; send them a password reset link instead.")
  })

  it('the last site owner is kept', async () => {
    const chinese = await rest('owner@example.test', 'DELETE', `/users/${cast.owner.id}`, undefined, { 'accept-language': 'zh-CN' })
    expect(chinese.status).toBe(400)
    expect(message(chinese.body)).toBe('不能删除最后一位站长。')
    const english = await rest('owner@example.test', 'DELETE', `/users/${cast.owner.id}`, undefined)
    expect(english.status).toBe(400)
    expect(message(english.body)).toBe('The last site owner cannot be deleted.')
    expect((await t.payload.findByID({ collection: 'users', id: cast.owner.id, depth: 0 })).id).toBe(cast.owner.id)
  })

  it('a body that is not a document', async () => {
    const send = async (headers: Record<string, string>) => {
      const { token } = await t.payload.login({ collection: 'users', data: { email: 'owner@example.test', password: PASSWORD } })
      const response = await new Browser(t.payload, t.databaseName).request('/api/tags', {
        method: 'POST',
        body: 'name=Plain',
        headers: { authorization: `JWT ${token}`, 'content-type': 'text/plain', ...headers },
      })
      return { status: response.status, message: ((await response.json()) as { errors: { message: string }[] }).errors[0]!.message }
    }
    const chinese = await send({ 'accept-language': 'zh-CN' })
    expect(chinese.status).toBe(415)
    expect(chinese.message).toMatch(/^此处不接受 Content-Type text\/plain。请以 JSON/)
    const english = await send({})
    expect(english.status).toBe(415)
    expect(english.message).toMatch(/^Content-Type text\/plain is not accepted here\. Send the document as JSON/)
  })
})

/**
 * The refusals that were still English (issue 31, the rest): the list limit,
 * moderation and registration, the reset endpoint, each in the language the
 * request asks for — Accept-Language, the `lang` cookie, or the user's own choice.
 */
describe('refusals of the guards, moderation and account endpoints in the request’s language', () => {
  const message = (body: Awaited<ReturnType<typeof rest>>['body']) => body.errors?.[0]?.message

  it('the list limit: pagination=false refused in Chinese (Accept-Language, then the user’s choice), English by default', async () => {
    await setLanguage(cast.reader.id, null)
    const chinese = await rest('reader@example.test', 'GET', '/tags?pagination=false', undefined, { 'accept-language': 'zh-CN' })
    expect(chinese.status).toBe(400)
    expect(fieldErrors(chinese.body)).toEqual({ pagination: '不支持 pagination=false：请用 limit 和 page 分页读取，每页最多 100 条。' })

    await setLanguage(cast.reader.id, 'zh-CN')
    const chosen = await rest('reader@example.test', 'GET', '/tags?pagination=false', undefined, { 'accept-language': 'en' })
    expect(fieldErrors(chosen.body).pagination).toMatch(/^不支持 pagination=false/)

    await setLanguage(cast.reader.id, null)
    const english = await rest('reader@example.test', 'GET', '/tags?pagination=false', undefined)
    expect(fieldErrors(english.body).pagination).toBe('pagination=false is not available; read pages of at most 100 with limit and page.')
  })

  it('a control character and a NUL in a query', async () => {
    const stored = await rest('owner@example.test', 'POST', '/tags', { name: 'Bell\u0007' }, { 'accept-language': 'zh-CN' })
    expect(stored.status).toBe(400)
    expect(fieldErrors(stored.body)).toEqual({ name: '请删除控制字符 U+0007：文本不能包含不可见的控制字符（制表符和换行除外）。' })
    const query = await rest('owner@example.test', 'GET', '/tags?where[name][equals]=%00', undefined, { 'accept-language': 'zh-CN' })
    expect(query.status).toBe(400)
    expect(message(query.body)).toBe('查询中不能包含 NUL 字符（%00）。')
  })

  it('moderation: a reply with a blocked word', async () => {
    const { setRules } = await import('../helpers/moderation')
    await setRules(t.payload, { blockWords: 'casino', holdFirstReplies: 0 })
    const chinese = await rest('reader@example.test', 'POST', '/replies', { article: articleId, body: 'Visit my casino' }, { 'accept-language': 'zh-CN' })
    expect(chinese.status).toBe(400)
    expect(fieldErrors(chinese.body)).toEqual({ body: '此回复包含本站不允许使用的词：“casino”。' })
    const english = await rest('reader@example.test', 'POST', '/replies', { article: articleId, body: 'Visit my casino' })
    expect(fieldErrors(english.body)).toEqual({ body: 'This reply contains a word that is not allowed here: “casino”.' })
  })

  it('registration: a form caught by the honeypot is refused in the language of the site’s `lang` cookie', async () => {
    const browser = new Browser(t.payload, t.databaseName)
    browser.cookies.set('lang', 'zh-CN')
    const refused = await browser.register({ email: 'bot@example.test', name: 'Bot', password: 'a long enough secret 42', passwordConfirm: 'a long enough secret 42', website: 'http://spam.example' })
    expect(refused.status).toBe(400)
    const body = (await refused.json()) as { errors: { data?: { errors?: { path: string; message: string }[] } }[] }
    expect(body.errors[0]!.data!.errors).toEqual([{ path: 'email', message: '无法创建此账户。如果你是真人，请稍等片刻再试。' }])
  })

  it('the reset endpoint: an incomplete link, different passwords and a used link, in Chinese, and in English by default', async () => {
    const reset = (json: unknown, headers: Record<string, string> = {}) =>
      new Browser(t.payload, t.databaseName).request('/api/accounts/password/reset', { json, headers }).then(async (r) => ({ status: r.status, body: (await r.json()) as { errors: { data?: { errors?: { path: string; message: string }[] } }[] } }))
    const fields = (body: { errors: { data?: { errors?: { path: string; message: string }[] } }[] }) => Object.fromEntries((body.errors[0]!.data?.errors ?? []).map((e) => [e.path, e.message]))
    const zh = { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' }

    const incomplete = await reset({ password: 'a long enough secret 42', passwordConfirm: 'another long secret 42' }, zh)
    expect(incomplete.status).toBe(400)
    expect(fields(incomplete.body)).toEqual({ token: '此重置链接不完整，请重新申请。', passwordConfirm: '两次输入的密码不一致。' })

    const used = await reset({ token: 'a'.repeat(40), password: 'a long enough secret 42', passwordConfirm: 'a long enough secret 42' }, zh)
    expect(used.status).toBe(400)
    expect(fields(used.body)).toEqual({ token: '此重置链接已过期或已被使用，请重新申请。' })

    const english = await reset({ token: 'a'.repeat(40), password: 'a long enough secret 42', passwordConfirm: 'a long enough secret 42' })
    expect(fields(english.body)).toEqual({ token: 'This reset link has expired or was already used. Ask for a new one.' })
  })
})
