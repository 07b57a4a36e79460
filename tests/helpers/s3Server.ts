/**
 * A real S3-compatible server on loopback (s3rver: the S3 REST API over a
 * directory), one per test file, with the buckets the test names.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'

export type S3Server = {
  endpoint: string
  client: S3Client
  /** The environment that points Inkwell at `bucket` on this server. */
  env: (bucket: string, extra?: Record<string, string>) => Record<string, string>
  keys: (bucket: string) => Promise<string[]>
  /** Empties and removes a bucket: every later write to it is refused (NoSuchBucket). */
  removeBucket: (bucket: string) => Promise<void>
  close: () => Promise<void>
}

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'inkwell-s3-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: buckets.map((name) => ({ name, configs: [] })) })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS })
  const keys = async (bucket: string) => ((await client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!).sort()
  return {
    endpoint,
    client,
    env: (bucket, extra = {}) => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      ...extra,
    }),
    keys,
    removeBucket: async (bucket) => {
      const existing = await keys(bucket)
      if (existing.length) await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: existing.map((Key) => ({ Key })) } }))
      await client.send(new DeleteBucketCommand({ Bucket: bucket }))
    },
    close: async () => {
      client.destroy()
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
