/**
 * The admin's words that the config holds — collection and global labels,
 * descriptions and groups, every field's label and description, every select
 * option's label — are Payload label objects in both languages (`{ en, zh }`,
 * from the catalogs through src/lib/i18n/labels.ts) or translation functions,
 * never an English string: this loads the whole config (as the admin sees it,
 * after Payload filled in a label made from each unlabelled field's name) and
 * fails on any string that reads as words. A new English-only label, option
 * or unlabelled field fails here.
 */
import path from 'node:path'

import type { SanitizedConfig } from 'payload'
import { beforeAll, describe, expect, it } from 'vitest'

import { LANGUAGE_NAMES } from '../../src/lib/i18n/names'

/** Strings shown the same in every language: each language's own name, and the webhook event a receiver gets (`ping`). */
const NAMES = new Set([...LANGUAGE_NAMES.map(([, name]) => name), 'ping'])
const LETTERS = /[A-Za-z\u3400-\u9fff]/
/** A code shown as code (`article.published`, `reply.created`): one token with a dot, underscore or hyphen. */
const CODE = /^[\w.-]*[._-][\w.-]*$/

type AnyField = {
  name?: string
  type: string
  label?: unknown
  hidden?: boolean
  admin?: { hidden?: boolean; description?: unknown; disabled?: boolean }
  options?: (string | { label: unknown; value: string })[]
  fields?: AnyField[]
  tabs?: { name?: string; label?: unknown; fields: AnyField[] }[]
  blocks?: { slug: string; fields: AnyField[] }[]
}

/** A label or description as it would reach the screen: English words when it is a plain string that reads as words. */
function english(value: unknown): boolean {
  return typeof value === 'string' && LETTERS.test(value) && !NAMES.has(value) && !CODE.test(value)
}

/** Both languages present in a label object (a function is Payload's or a plugin's own translation). */
function bothLanguages(value: unknown): boolean {
  if (typeof value === 'function' || value === false || value === undefined) return true
  if (typeof value === 'string') return !english(value)
  const o = value as Record<string, unknown>
  return typeof o.en === 'string' && typeof o.zh === 'string' && o.en !== '' && o.zh !== ''
}

/** Every word a field (and what it holds) shows that is not in both languages, as `where: text`. */
export function untranslated(where: string, fields: AnyField[]): string[] {
  return fields.flatMap((field) => {
    const at = `${where}.${field.name ?? field.type}`
    const shown = !field.hidden && !field.admin?.hidden && !field.admin?.disabled
    const own = shown
      ? [
          ...(bothLanguages(field.label) ? [] : [`${at} label: ${JSON.stringify(field.label)}`]),
          ...(bothLanguages(field.admin?.description) ? [] : [`${at} description: ${JSON.stringify(field.admin?.description)}`]),
          ...(field.options ?? []).flatMap((o) => (bothLanguages(typeof o === 'string' ? o : o.label) ? [] : [`${at} option: ${JSON.stringify(typeof o === 'string' ? o : o.label)}`])),
        ]
      : []
    return [
      ...own,
      ...untranslated(at, field.fields ?? []),
      ...(field.tabs ?? []).flatMap((tab) => [...(bothLanguages(tab.label) ? [] : [`${at} tab: ${JSON.stringify(tab.label)}`]), ...untranslated(at, tab.fields)]),
      ...(field.blocks ?? []).flatMap((block) => untranslated(`${at}.${block.slug}`, block.fields)),
    ]
  })
}

describe('the admin’s labels, descriptions and options are in both languages', () => {
  let config: SanitizedConfig
  beforeAll(async () => {
    // Vitest sets BASE_URL to Vite's '/', which is not a site address.
    Object.assign(process.env, { PAYLOAD_SECRET: 'test-secret-not-for-production', BASE_URL: 'http://localhost:3000', DATA_DIR: path.join(__dirname, '../../.ci/out/config-labels-data') })
    config = await (await import('../../payload.config')).default
  }, 60_000)

  it('the scan finds English where there is some', () => {
    expect(
      untranslated('c', [
        { name: 'kind', type: 'select', options: [{ label: 'Reply to your article', value: 'reply' }, { label: { en: 'Draft', zh: '草稿' }, value: 'draft' }] },
        { name: 'viewCount', type: 'number', label: 'View Count' },
        { name: 'meta', type: 'group', label: { en: 'SEO', zh: 'SEO' }, fields: [{ name: 'title', type: 'text', label: { en: 'Title' } }] },
        { name: 'secret', type: 'text', label: 'Secret', hidden: true },
        { name: 'event', type: 'select', label: { en: 'Event', zh: '事件' }, options: ['article.published'] },
      ]),
    ).toEqual(['c.kind option: "Reply to your article"', 'c.viewCount label: "View Count"', 'c.meta.title label: {"en":"Title"}'])
  })

  it('every collection’s and global’s own words', () => {
    const visible = config.collections.filter((c) => !c.slug.startsWith('payload-'))
    const offences = [
      ...visible.flatMap((c) => [
        ...(bothLanguages(c.labels.singular) && bothLanguages(c.labels.plural) ? [] : [`${c.slug} labels: ${JSON.stringify(c.labels)}`]),
        ...(bothLanguages(c.admin.description) ? [] : [`${c.slug} description: ${JSON.stringify(c.admin.description)}`]),
        ...(bothLanguages(c.admin.group) ? [] : [`${c.slug} group: ${JSON.stringify(c.admin.group)}`]),
      ]),
      ...config.globals.flatMap((g) => (bothLanguages(g.label) ? [] : [`${g.slug} label: ${JSON.stringify(g.label)}`])),
    ]
    expect(offences).toEqual([])
  })

  it('every field’s label and description, and every option’s label, of every collection and global', () => {
    const offences = [
      ...config.collections.filter((c) => !c.slug.startsWith('payload-')).flatMap((c) => untranslated(c.slug, c.fields as AnyField[])),
      ...config.globals.flatMap((g) => untranslated(g.slug, g.fields as AnyField[])),
    ]
    expect(offences).toEqual([])
  })

  it('a select’s options name both languages: the notification kinds, article and reply states', () => {
    const field = (slug: string, name: string) => (config.collections.find((c) => c.slug === slug)!.fields as AnyField[]).find((f) => f.name === name)!
    expect(field('notifications', 'kind').options).toContainEqual({ value: 'reply', label: { en: 'Reply to your article', zh: '你的文章有新回复' } })
    expect(field('articles', 'status').options).toEqual([
      { value: 'draft', label: { en: 'Draft', zh: '草稿' } },
      { value: 'published', label: { en: 'Published', zh: '已发布' } },
    ])
    expect(field('replies', 'status').options).toContainEqual({ value: 'held', label: { en: 'Held', zh: '待审' } })
  })
})
