/** What the whole site shows: its settings, the category navigation, friendly links, categories and tags by slug. */
import { onInvalidate } from '../../../../src/lib/cacheBus'
import type { Category, Link, SiteSetting, Tag } from '../../../../src/payload-types'
import { supportedLanguage, type Language } from '../../../../src/lib/i18n/languages'
import { asPublic, payload } from './payload'

export async function getSettings(): Promise<SiteSetting> {
  return (await payload().findGlobal({ slug: 'site-settings', depth: 0, ...asPublic })) as SiteSetting
}

export async function listCategories(): Promise<Category[]> {
  const found = await payload().find({ collection: 'categories', limit: 100, sort: 'order', depth: 0, select: { name: true, slug: true, description: true }, ...asPublic })
  return found.docs as Category[]
}

type LayoutData = { settings: SiteSetting; categories: Category[] }
let layoutData: Promise<LayoutData> | undefined
// What every page's layout shows changes rarely: it is read once and kept until the cache bus
// announces a change of settings or categories (at once in the writing process, on commit in the others).
onInvalidate((tags) => {
  if (tags.some((tag) => tag === '*' || tag === 'settings' || tag === 'categories')) layoutData = undefined
})

/** The layout's data (site settings and the category navigation), read together and kept until either changes. */
export function getLayoutData(): Promise<LayoutData> {
  if (!layoutData) {
    const reading = Promise.all([getSettings(), listCategories()]).then(([settings, categories]) => ({ settings, categories }))
    layoutData = reading
    // A failed read is not kept: the next page tries again.
    reading.catch(() => {
      if (layoutData === reading) layoutData = undefined
    })
  }
  return layoutData
}

async function findOneBySlug<T>(collection: 'categories' | 'tags', slug: string): Promise<T | null> {
  const found = await payload().find({ collection, where: { slug: { equals: slug } }, limit: 1, depth: 0, pagination: false, ...asPublic })
  return (found.docs[0] as T | undefined) ?? null
}

export const getCategoryBySlug = (slug: string) => findOneBySlug<Category>('categories', slug)
export const getTagBySlug = (slug: string) => findOneBySlug<Tag>('tags', slug)

export async function listLinks(): Promise<Link[]> {
  return (await payload().find({ collection: 'links', limit: 100, sort: 'order', depth: 0, ...asPublic })).docs as Link[]
}

/** The interface language the owner set for visitors who ask for neither supported one (site settings' default language). */
export async function siteLanguage(): Promise<Language> {
  try {
    return supportedLanguage((await getLayoutData()).settings.defaultLanguage) ?? 'en'
  } catch {
    return 'en'
  }
}
