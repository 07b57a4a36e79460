/**
 * Every field's label in both languages. A field without one is shown by
 * Payload under its name made into English words ("Published At"), in the
 * Chinese admin too; this step gives each such field, in every collection and
 * global whatever plugin added it, the catalog's `admin.label.<collection>.<name>`
 * (a word that differs in one collection: a user's 名字, a tag's 名称) or else
 * `admin.label.<name>`. A label a field sets itself is kept, unless it is a
 * plain string (a plugin's English, like plugin-seo's) the catalogs have a key for.
 * tests/unit/i18n-config-labels.test.ts fails on any field left in English.
 */
import type { CollectionConfig, Config, Field, GlobalConfig, Plugin } from 'payload'

import { en } from '../../lib/i18n/en'
import type { MessageKey } from '../../lib/i18n'
import { bothLanguages } from '../../lib/i18n/labels'

const isKey = (key: string): key is MessageKey => key in en

/** The catalog key of a field's label, if the catalogs have one. */
function labelKey(owner: string, name: string): MessageKey | undefined {
  return [`admin.label.${owner}.${name}`, `admin.label.${name}`].find(isKey)
}

function labelled(owner: string, fields: Field[]): Field[] {
  return fields.map((field) => {
    const withChildren = childrenLabelled(owner, field)
    const own = 'label' in withChildren ? withChildren.label : undefined
    if (!('name' in withChildren) || (own !== undefined && typeof own !== 'string')) return withChildren
    const key = labelKey(owner, withChildren.name)
    return key ? ({ ...withChildren, label: bothLanguages(key) } as Field) : withChildren
  })
}

/** The same for the fields a group, array, row, collapsible or tab holds. */
function childrenLabelled(owner: string, field: Field): Field {
  if (field.type === 'tabs') return { ...field, tabs: field.tabs.map((tab) => ({ ...tab, fields: labelled(owner, tab.fields) })) }
  if ('fields' in field && Array.isArray(field.fields)) return { ...field, fields: labelled(owner, field.fields) } as Field
  return field
}

export const fieldLabelsPlugin =
  (): Plugin =>
  (config: Config): Config => ({
    ...config,
    collections: (config.collections ?? []).map((c): CollectionConfig => ({ ...c, fields: labelled(c.slug, c.fields) })),
    globals: (config.globals ?? []).map((g): GlobalConfig => ({ ...g, fields: labelled(g.slug, g.fields) })),
  })
