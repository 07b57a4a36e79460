/**
 * Where uploads and generated images live (issue 32 §1). Without S3 settings:
 * DATA_DIR/media and DATA_DIR/cards on this machine's disk, as before. With
 * S3_BUCKET: every upload and its image sizes go to an S3-compatible bucket
 * (AWS, MinIO, Ceph, R2…) through Payload's official adapter
 * (@payloadcms/storage-s3), the share cards to the same bucket under `cards/`
 * (`cardStoreOf`), the local disk holds none of them, and every web process
 * serves the same files (a card drawn by one is served by the others):
 * - served through Inkwell (default): `/api/media/file/<name>` streams from the
 *   bucket under the Media collection's read access and its response headers
 *   (nosniff, ETag, ranges);
 * - or linked directly at S3_PUBLIC_URL (a CDN or the bucket's public address).
 * Deleting a document deletes its objects (the adapter's afterDelete); a
 * bucket that refuses a write fails the upload before the document is saved.
 *
 * `npm run blog -- media:migrate` copies an existing site's local files into
 * the bucket: idempotent (a key already there is skipped), so it resumes
 * after an interruption, with progress.
 *
 * REQUIRED, like content: the adapter's two columns (`prefix`, `_objectkey`,
 * migration 20261126_150000_media_storage) are part of the media schema
 * whether or not a bucket is configured, so one migration set fits both.
 */
import { s3Storage } from '@payloadcms/storage-s3'
import { APIError, type Config, type Payload, type PayloadRequest, type Plugin } from 'payload'

import { addCommands, CommandFailure } from '../../../jobs/commands'
import { diskStore, type FileStore } from '../../lib/fileStore'
import { validationTranslator } from '../../lib/i18n/request'
import { withoutTrailingSlashes } from '../../lib/redirectPath'
import { pluginOptionsOf, withPluginOptions } from '../pluginOptions'
import { s3ClientConfig, s3Store, type S3Settings } from './s3Store'

export type { S3Settings } from './s3Store'

export type StorageOptions = {
  /** DATA_DIR/media: where uploads live without a bucket, and where media:migrate reads from. */
  mediaDir: string
  /** DATA_DIR/cards: where share cards are kept without a bucket. */
  cardsDir: string
  s3?: S3Settings
}

const KEY = 'inkwell:storage'
/** The share cards' part of the bucket; the uploads' keys (flat file names) never start with it. */
export const CARDS_PREFIX = 'cards/'

/** The store the site's uploads are in (the bucket when configured, else the media directory). */
export function mediaStoreOf(payload: Payload): FileStore | undefined {
  const options = pluginOptionsOf<StorageOptions>(payload, KEY)
  if (!options) return undefined
  // The cards share the bucket but are not uploads: media:migrate and backups leave them out (they are redrawn).
  return options.s3 ? s3Store(options.s3, { excluding: [CARDS_PREFIX] }) : diskStore(options.mediaDir)
}

/** One card store per instance: the card cache (src/plugins/content/shareCard.ts) is kept per store. */
const cardStores = new WeakMap<Payload, FileStore>()

/** The store share cards are kept in (the bucket's `cards/` when configured, else DATA_DIR/cards). */
export function cardStoreOf(payload: Payload): FileStore | undefined {
  const options = pluginOptionsOf<StorageOptions>(payload, KEY)
  if (!options) return undefined
  let store = cardStores.get(payload)
  if (!store) {
    store = options.s3 ? s3Store(options.s3, { prefix: CARDS_PREFIX }) : diskStore(options.cardsDir)
    cardStores.set(payload, store)
  }
  return store
}

function mediaMigrate(options: StorageOptions) {
  return {
    name: 'media:migrate',
    description: "Copy the local uploads (DATA_DIR/media) into the S3 bucket; resumable, skips what is there",
    run: async (_payload: Payload, io: { log(line: string): void; progress(done: number, total: number): void }) => {
      if (!options.s3) throw new CommandFailure('media:migrate: S3_BUCKET is not set: there is no bucket to move the files to')
      const from = diskStore(options.mediaDir)
      const to = s3Store(options.s3)
      const keys = await from.list()
      io.log(`media:migrate: ${keys.length} files in ${from.where} → ${to.where}`)
      let copied = 0
      for (const [i, key] of keys.entries()) {
        if (!(await to.exists(key))) {
          await to.write(key, await from.read(key))
          copied++
        }
        io.progress(i + 1, keys.length)
      }
      return `media:migrate: ${copied} copied, ${keys.length - copied} already in ${to.where}; the local files are kept (remove ${options.mediaDir} once the site serves from the bucket)`
    },
  }
}

/** An error the bucket (or the way to it) answered with: the AWS SDK marks them with `$metadata`/`$fault`. */
function isStoreError(error: unknown): error is Error {
  return error instanceof Error && ('$metadata' in error || '$fault' in error || (error as NodeJS.ErrnoException).code === 'ECONNREFUSED')
}

/**
 * The adapter uploads and deletes in after-change/after-delete hooks, inside
 * the document's transaction, and lets the SDK's error through (a 500). Its
 * hooks are wrapped: a refusal by the bucket becomes a 503 that says what
 * happened, and the transaction rolls back (no document without its file).
 */
function withClearStoreErrors(config: Config, before: Config): Config {
  const original = before.collections?.find((c) => c.slug === 'media')
  const wrap = <H extends (...args: never[]) => unknown>(hook: H): H =>
    (async (...args: Parameters<H>) => {
      try {
        return await hook(...args)
      } catch (error) {
        if (!isStoreError(error)) throw error
        // In the uploader's language: every collection hook's arguments carry the request.
        const { req } = (args[0] ?? {}) as { req?: PayloadRequest }
        throw new APIError(validationTranslator(req)('error.storage.refused', { error: error.name }), 503)
      }
    }) as unknown as H
  return {
    ...config,
    collections: config.collections?.map((c) => {
      if (c.slug !== 'media') return c
      const added = <H>(now: H[] | undefined, was: H[] | undefined) => (now ?? []).map((h) => ((was ?? []).includes(h) ? h : wrap(h as never)))
      return { ...c, hooks: { ...c.hooks, afterChange: added(c.hooks?.afterChange, original?.hooks?.afterChange), afterDelete: added(c.hooks?.afterDelete, original?.hooks?.afterDelete) } }
    }),
  }
}

export const storagePlugin =
  (options: StorageOptions): Plugin =>
  (config: Config): Config => {
    const s3 = options.s3
    const publicUrl = s3?.publicUrl === undefined ? undefined : withoutTrailingSlashes(s3.publicUrl)
    const withAdapter = s3Storage({
      enabled: Boolean(s3),
      // The same columns with and without a bucket: one schema, one migration set.
      alwaysInsertFields: true,
      bucket: s3?.bucket ?? 'unset',
      config: s3 ? s3ClientConfig(s3) : {},
      collections: {
        media: publicUrl
          ? { disablePayloadAccessControl: true, generateFileURL: ({ filename, prefix }) => `${publicUrl}/${prefix ? `${prefix}/` : ''}${encodeURIComponent(filename)}` }
          : true,
      },
    })(config) as Config
    return withPluginOptions(addCommands(withClearStoreErrors(withAdapter, config), [mediaMigrate(options)]), KEY, options)
  }
