/**
 * An S3-compatible bucket as a FileStore (src/lib/fileStore.ts), with the same
 * client settings the official adapter gets: for the commands that move files
 * in and out (media:migrate, backup, restore) and for the share cards.
 */
import type { Readable } from 'node:stream'

import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, NoSuchKey, NotFound, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'

import { FileNotFound, type FileStore } from '../../lib/fileStore'

export type S3Settings = {
  bucket: string
  endpoint?: string
  region: string
  accessKeyId?: string
  secretAccessKey?: string
  forcePathStyle: boolean
  /** Files are linked at this address (a CDN or the bucket's public website) instead of through Inkwell. */
  publicUrl?: string
}

export function s3ClientConfig(s: S3Settings): S3ClientConfig {
  return {
    region: s.region,
    endpoint: s.endpoint,
    forcePathStyle: s.forcePathStyle,
    credentials: s.accessKeyId && s.secretAccessKey ? { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } : undefined,
  }
}

export type S3StoreOptions = {
  client?: S3Client
  /** The store is the part of the bucket under this prefix (`cards/`): its keys are relative to it. */
  prefix?: string
  /** Keys under these prefixes belong to other stores in the same bucket and are not listed. */
  excluding?: string[]
}

const isMissing = (error: unknown) =>
  error instanceof NotFound || error instanceof NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404

export function s3Store(settings: S3Settings, { client = new S3Client(s3ClientConfig(settings)), prefix = '', excluding = [] }: S3StoreOptions = {}): FileStore {
  const Bucket = settings.bucket
  const objectKey = (key: string) => prefix + key
  const where = prefix ? `s3://${Bucket}/${prefix}` : `s3://${Bucket}`
  return {
    where,
    async list(under = '') {
      const keys: string[] = []
      let ContinuationToken: string | undefined
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: objectKey(under), ContinuationToken }))
        for (const object of page.Contents ?? []) {
          if (object.Key && !excluding.some((other) => object.Key!.startsWith(other))) keys.push(object.Key.slice(prefix.length))
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
      return keys.sort()
    },
    async read(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }))
        return object.Body as Readable
      } catch (error) {
        throw isMissing(error) ? new FileNotFound(key, where) : error
      }
    },
    async write(key, body, contentType) {
      // Multipart for big files, one PUT for small ones; a stream of unknown length is fine. S3 shows an object only once whole.
      await new Upload({ client, params: { Bucket, Key: objectKey(key), Body: body, ContentType: contentType } }).done()
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }))
        return true
      } catch (error) {
        if (isMissing(error)) return false
        throw error
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }))
    },
  }
}
