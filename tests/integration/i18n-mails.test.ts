/**
 * Issue 31: mails go out in the recipient's language whatever the writer's
 * (a reply notification to a zh-CN author and to an en one); the profile's
 * `language` is private to its user; a new article with a Chinese title and
 * body defaults to zh-CN.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { syncJobsIdle } from '../../jobs/queue'
import { writeArticle } from '../helpers/articles'
import { createTestPayload, type TestPayload } from '../helpers/payload'
import { recipient, startInbox, smtpEnv, type Inbox } from '../helpers/smtp'
import { createCast } from '../helpers/users'
import { Browser } from '../helpers/restClient'

let t: TestPayload
let inbox: Inbox
let cast: Awaited<ReturnType<typeof createCast>>

beforeAll(async () => {
  inbox = await startInbox()
  t = await createTestPayload({ ...smtpEnv(inbox), QUEUE_CONNECTION: 'sync', BASE_URL: 'http://blog.example.test' })
  cast = await createCast(t.payload)
})
afterAll(async () => {
  await syncJobsIdle()
  await t?.destroy()
  await inbox?.stop()
})

const setLanguage = (user: typeof cast.author, language: 'en' | 'zh-CN') =>
  t.payload.update({ collection: 'users', id: user.id, data: { language }, overrideAccess: false, user })

async function replyMail(title: string, body: string) {
  const article = await writeArticle(t.payload, cast.author, title)
  const before = inbox.messages.length
  await t.payload.create({ collection: 'replies', data: { article: article.id, body }, overrideAccess: false, user: cast.reader })
  const mails = await inbox.waitFor(before + 1)
  await syncJobsIdle()
  const mail = mails.slice(before).find((m) => m.text?.includes(body))!
  expect(recipient(mail)).toBe('author@example.test')
  return { mail, article }
}

describe('mails in the recipient’s language', () => {
  it('sends a reply notification in Chinese to an author who chose zh-CN, whatever the reply’s language', async () => {
    await setLanguage(cast.reader, 'en')
    await setLanguage(cast.author, 'zh-CN')
    const { mail, article } = await replyMail('Queues <in> practice', 'An English reply & more')
    expect(mail.subject).toBe('《Queues <in> practice》有新回复')
    expect(mail.text).toContain('reader 在 Inkwell 回复了你的文章《Queues <in> practice》：')
    expect(mail.text).toContain(`阅读: http://blog.example.test/articles/${article.id}/`)
    expect(mail.html).toContain('阅读回复</a>')
    // Everything that reaches the HTML part is escaped.
    expect(mail.html).toContain('《Queues &lt;in&gt; practice》')
    expect(mail.html).toContain('An English reply &amp; more')
  })

  it('sends it in English to an author who chose en, even when the reply is Chinese', async () => {
    await setLanguage(cast.reader, 'zh-CN')
    await setLanguage(cast.author, 'en')
    const { mail } = await replyMail('消息队列实践', '写得很好，谢谢分享')
    expect(mail.subject).toBe('New reply on “消息队列实践”')
    expect(mail.text).toContain('reader replied to your article “消息队列实践” on Inkwell:')
    expect(mail.html).toContain('Read the reply</a>')
  })
})

describe('account mails in the account’s language', () => {
  it('mails a password reset in Chinese to an account that chose zh-CN, asked from a browser that names no language', async () => {
    await setLanguage(cast.reader, 'zh-CN')
    const before = inbox.messages.length
    const reply = await new Browser(t.payload, t.databaseName, undefined, 'http://blog.example.test').request('/api/accounts/password/forgot', { json: { email: 'reader@example.test' } })
    expect(reply.status).toBe(200)
    const mail = (await inbox.waitFor(before + 1)).slice(before).find((m) => recipient(m) === 'reader@example.test')!
    expect(mail.subject).toBe('重设你的 Inkwell 密码')
    expect(mail.text).toContain('reader，你好：')
    expect(mail.html).toContain('<strong>Inkwell</strong> 账户密码。')
    expect(mail.html).toContain('设置新密码</a>')
  })
})

describe('the language field', () => {
  it('is read by its user and by user managers only', async () => {
    await setLanguage(cast.author, 'zh-CN')
    const asSelf = await t.payload.findByID({ collection: 'users', id: cast.author.id, overrideAccess: false, user: cast.author })
    expect(asSelf.language).toBe('zh-CN')
    const asOther = await t.payload.findByID({ collection: 'users', id: cast.author.id, overrideAccess: false, user: cast.reader })
    expect(asOther.language).toBeUndefined()
  })

  it('accepts only the two interface languages, naming the field', async () => {
    await expect(setLanguage(cast.author, 'fr' as 'en')).rejects.toMatchObject({ status: 400, data: { errors: [expect.objectContaining({ path: 'language' })] } })
  })
})

describe('a new article’s language', () => {
  it('is zh-CN when its title and body are Chinese, the site default otherwise, and an explicit choice wins', async () => {
    expect((await writeArticle(t.payload, cast.author, '消息队列实践', { markdown: '队列让写入更快。' })).language).toBe('zh-CN')
    expect((await writeArticle(t.payload, cast.author, 'Queues in practice', { markdown: 'Queues make writes fast.' })).language).toBe('en')
    // A Chinese title over an English body is not a Chinese article.
    expect((await writeArticle(t.payload, cast.author, '消息队列', { markdown: 'An English body.' })).language).toBe('en')
    expect((await writeArticle(t.payload, cast.author, '消息队列实践二', { markdown: '中文正文。', language: 'ja' })).language).toBe('ja')
  })
})
