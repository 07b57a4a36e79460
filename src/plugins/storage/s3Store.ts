/**
 * An S3-compatible bucket as a FileStore (src/lib/fileStore.ts), with the same
 * client settings the official adapter gets: for the commands that move files
 * in and out (media:migrate, backup, restore).
 */
import type { Readable } from 'node:stream'

import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, NotFound, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'

import type { FileStore } from '../../lib/fileStore'

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

export function s3Store(settings: S3Settings, client = new S3Client(s3ClientConfig(settings))): FileStore {
  const Bucket = settings.bucket
  return {
    where: `s3://${Bucket}`,
    async list() {
      const keys: string[] = []
      let ContinuationToken: string | undefined
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }))
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key)
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
      return keys.sort()
    },
    async read(key) {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: key }))
      return object.Body as Readable
    },
    async write(key, body, contentType) {
      // Multipart for big files, one PUT for small ones; a stream of unknown length is fine.
      await new Upload({ client, params: { Bucket, Key: key, Body: body, ContentType: contentType } }).done()
    },
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }))
        return true
      } catch (error) {
        if (error instanceof NotFound || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false
        throw error
      }
    },
  }
}
