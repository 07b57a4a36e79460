/**
 * Drafts, revisions, autosave and preview of articles (issue 34), with
 * Payload's own versions feature. REQUIRED, like content: the `_status`
 * column and the versions tables (src/migrations/20261126_130000_article_versions.ts)
 * are part of the articles schema, and "published" is decided by `_status`.
 *
 * How Payload 3.90.1 versions behave on the postgres adapter (read in
 * node_modules/payload/dist: collections/operations/utilities/update.js,
 * create.js, restoreVersion.js, find*.js, versions/saveVersion.js,
 * versions/getLatestCollectionVersion.js, versions/enforceMaxVersions.js):
 * - `versions` adds the tables `_articles_v` (one row per version: `parent_id`,
 *   every field as `version_<column>`, `version__status`, `latest`,
 *   `autosave`, timestamps) and `_articles_v_rels` (hasMany relationships),
 *   `_articles_v_version_<array>` for arrays; `drafts` adds the `_status`
 *   field ('draft' | 'published', default 'draft') to the collection.
 * - create: always inserts the `articles` row (`draft: true` forces `_status`
 *   'draft') and a version.
 * - update / updateByID: the document it starts from is the LATEST VERSION
 *   (a pending draft, if any), not the row. `draft: true` without
 *   `_status: 'published'` is a "draft save": `_status` is forced to 'draft',
 *   validation is skipped, the `articles` row is NOT touched, only a version is
 *   written (`latest` moves to it). Any other save writes the row AND a
 *   version: `_status: 'published'` publishes; `_status: 'draft'` without
 *   `draft` unpublishes. Hooks (before/after change) run in both cases; in a
 *   draft save, afterChange's `doc` is the draft, and `previousDoc` is the
 *   latest version before it.
 * - autosave (`autosave: true`, always with `draft: true`): updates the latest
 *   version in place while it is an autosave one, so typing does not pile up
 *   versions; the first autosave after a manual save adds one.
 * - `maxPerDoc`: after each NEW version, the oldest beyond the limit are
 *   deleted (enforceMaxVersions).
 * - find / findByID / count without `draft` read the `articles` row: for a
 *   published article with a pending draft, the published state. With
 *   `draft: true` they read the latest version, under the same read access
 *   applied to the version's fields (`version.status` …); a version the
 *   access excludes falls back to the row.
 * - restoreVersion: copies the version into the row (its `_status`, so an old
 *   published version republishes) and writes a new version; with `draft:
 *   true` it writes only a draft version. Hooks run (operation 'update').
 * - findVersions / findVersionByID (REST `/api/articles/versions`, GraphQL
 *   `versionsArticles`, the admin's history) use `access.readVersions`, which
 *   defaults to "any signed-in user": set below to authors of the article and
 *   holders of `articles.read.any`.
 *
 * What this plugin does with that (publishedState.ts says who owns what):
 * - versions: 50 per article, drafts with autosave every 2 s (both editors
 *   set the form's value, so Payload's autosave sees every keystroke);
 * - `_status` owns "published", `status` mirrors it on every row and version;
 * - every after-change hook of the other features acts on the published
 *   state only (wrapped: skipped on draft saves), so a draft of a published
 *   article changes nothing readers see: page, lists, feeds, search index,
 *   sitemap, dashboard, render cache, webhooks, slug translation;
 * - a save that names no status and is not a draft save (an API client's
 *   PATCH of one field, by id or in bulk; the translate-slug job; the
 *   importer) changes the published state and keeps a pending draft, with
 *   the change made to the draft too (`keepPendingDraft`, publishedState.ts):
 *   Payload's own rules would publish the draft (by id) or drop it from the
 *   latest version (in bulk);
 * - the Preview button: `/preview/<id>?token=…`, a signed, expiring link to
 *   the latest version rendered by the reader site's article components
 *   (frontend/src/pages/preview/[id].astro, previewToken.ts);
 * - live preview (`admin.livePreview`, the eye button of the edit view): the
 *   same preview page in an iframe beside the editor, by a link that stays
 *   the same for an hour (`livePreviewPath`; a new URL would reload the iframe
 *   on every autosave). The reader site is Astro, not React, so it follows
 *   Payload's "server-side live preview": the page posts
 *   `{ type: 'payload-live-preview', ready: true }` to the admin (its parent),
 *   and the admin then posts `{ type: 'payload-document-event' }` once at
 *   ready and after every save, draft save and autosave (@payloadcms/ui
 *   elements/LivePreview/Window: its `mostRecentUpdate` effect; the
 *   `payload-live-preview` messages with the form's values are for
 *   client-rendered sites and are ignored). The page reloads itself on that
 *   event when it comes from its parent on the site's own origin. Only
 *   `/preview/…` may be framed, and only by the site (src/server/securityHeaders.ts);
 * - the `status` select becomes read-only in the admin: Publish, Save draft
 *   and Unpublish are Payload's buttons;
 * - `editedBy`, stamped on every save, so each revision says who saved it
 *   (the history lists when; the version view and its diff show who).
 * Scheduled publishing is unchanged: a published row with a future
 * `publishedAt` is the scheduled version, and later drafts never touch it.
 */
import type { CollectionAfterChangeHook, CollectionConfig, Config, Field, Plugin } from 'payload'

import { readArticleVersions } from '../../../collections/Articles/access'
import { serverWritten } from '../../fields/serverOwned'
import { bothLanguages } from '../../lib/i18n/labels'
import { decorateCollection } from '../decorateCollection'
import { clearDraftOnly, keepPendingDraft, mirrorStatus, normalizeStatus, publishedOnly } from './publishedState'
import { livePreviewPath, previewPath } from './previewToken'

export type DraftsOptions = {
  /** Revisions kept per article; older ones are deleted. */
  maxPerDoc?: number
  /** Autosave interval of drafts in the admin, in milliseconds. */
  autosaveMs?: number
  /** The reader site's origin, for the Preview button's absolute URL. */
  baseUrl: string
}

/** Who saved the article, stamped on every save: each version keeps it, so the history says who and when. */
const editedByField: Field = {
  name: 'editedBy',
  label: bothLanguages('admin.field.drafts.editedBy.label'),
  type: 'relationship',
  relationTo: 'users',
  admin: { position: 'sidebar', readOnly: true, description: bothLanguages('admin.field.drafts.editedBy') },
  // Stamped by mirrorStatus (publishedState.ts); an editor's name is not public, so only signed-in users read it.
  access: { ...serverWritten, read: ({ req }) => Boolean(req.user) },
}

const readOnlyStatus = (fields: Field[]): Field[] =>
  fields.map((f) =>
    'name' in f && f.name === 'status'
      ? ({ ...f, admin: { ...f.admin, readOnly: true, description: bothLanguages('admin.field.drafts.status') } } as Field)
      : f,
  )

function withVersions({ maxPerDoc = 50, autosaveMs = 2000, baseUrl }: DraftsOptions) {
  return (articles: CollectionConfig): CollectionConfig => {
    const hooks = articles.hooks ?? {}
    return {
      ...articles,
      versions: { maxPerDoc, drafts: { autosave: { interval: autosaveMs } } },
      access: { ...articles.access, readVersions: readArticleVersions },
      admin: {
        ...articles.admin,
        preview: (doc, { req }) => (typeof doc.id === 'number' ? new URL(previewPath(req.payload.secret, doc.id), baseUrl).href : null),
        // Beside the editor: the same signed preview page, which reloads itself on the admin's save events.
        livePreview: {
          url: ({ data, req }) => (typeof data.id === 'number' && req.user ? new URL(livePreviewPath(req.payload.secret, data.id), baseUrl).href : null),
        },
      },
      hooks: {
        ...hooks,
        beforeOperation: [normalizeStatus, ...(hooks.beforeOperation ?? [])],
        beforeChange: [mirrorStatus, ...(hooks.beforeChange ?? [])],
        afterChange: [...(hooks.afterChange ?? []).map((hook: CollectionAfterChangeHook) => publishedOnly(hook)), keepPendingDraft],
        afterOperation: [...(hooks.afterOperation ?? []), clearDraftOnly],
      },
      fields: [...readOnlyStatus(articles.fields), editedByField],
    }
  }
}

/**
 * Listed after the features that hang after-change hooks on articles (search,
 * slugs, webhooks, renderCache): it wraps the hooks present when it runs.
 */
export const draftsPlugin =
  (options: DraftsOptions): Plugin =>
  (config: Config): Config =>
    decorateCollection(config, 'articles', 'draftsPlugin', withVersions(options))
