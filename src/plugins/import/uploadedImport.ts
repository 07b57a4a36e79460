/**
 * An import uploaded in the admin (issue 30): the site owner sends a
 * WordPress or Ghost export with the options the commands take; the import
 * runs as a queued job and its report is the `import-reports` document,
 * which the admin page polls for the progress.
 *
 *  - creating a report is the request to import: `requireUpload` (beforeChange)
 *    refuses one without an uploaded file of the right kind and size, on every
 *    path (REST, GraphQL, Local API), and fills in what the server knows;
 *    only the commands, which keep the report of an import they ran
 *    themselves, pass `context.importCommand`;
 *  - `queueUploadedImport` (afterChange) stores the file's bytes in
 *    `import_uploads`, in the same transaction, and queues `run-import`: the
 *    job may run in another process (a worker), which reads the bytes from
 *    the database, not from this process's disk;
 *  - `runUploadedImport` is the job: idempotent (an import is), so a retry
 *    after a crash imports what is missing and changes nothing else.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

import { sql } from '@payloadcms/db-postgres'
import { addDataAndFileToRequest, ValidationError, type CollectionAfterChangeHook, type CollectionBeforeChangeHook, type Payload, type PayloadRequest } from 'payload'

import { IMPORT_PERMISSION } from '../../../collections/ImportReports'
import { CommandFailure } from '../../../jobs/commands'
import { enqueue } from '../../../jobs/queue'
import { hasPermission } from '../../access/permissions'
import { errorResponse } from '../../lib/errorResponse'
import { translatorFor, validationTranslator } from '../../lib/i18n/request'
import { query, transactionDb } from '../../lib/pool'
import { importGhost } from './ghost'
import { MediaImporter } from './media'
import type { OutboundPolicy } from '../../lib/outboundFetch'
import type { ImportReport } from './report'
import { importWordPress } from './wordpress'

export const RUN_IMPORT_JOB = 'run-import'
export type RunImportData = { reportId: number }

declare module '../../../jobs/definitions' {
  interface JobData {
    'run-import': RunImportData
  }
}

/** What the upload endpoint hands to the collection's hooks (through `req.context`). */
export type ImportUpload = { name: string; bytes: Buffer; truncated?: boolean }
const UPLOAD = 'importUpload'
/** Set by the commands, which keep the report of an import they ran themselves (no file to queue). */
export const IMPORT_COMMAND = 'importCommand'

export type ImportSource = 'wordpress' | 'ghost'

/**
 * Which export a file is, from its first bytes (not its name): a WXR file is
 * XML (`<?xml` or `<rss`), a Ghost export a JSON object. Anything else is
 * refused before it is stored.
 */
export function sniffExport(bytes: Buffer): ImportSource | undefined {
  const head = bytes.subarray(0, 2048).toString('utf8').replace(/^\uFEFF/, '').trimStart()
  if (head.startsWith('{')) return 'ghost'
  if (/^<(\?xml|rss|!--)/.test(head) && /<rss[\s>]/.test(head + bytes.subarray(2048, 16384).toString('utf8'))) return 'wordpress'
  return undefined
}

function refuse(req: PayloadRequest, message: string): never {
  throw new ValidationError({ collection: 'import-reports', errors: [{ path: 'file', message }], req })
}

export const requireUpload =
  (maxBytes: number): CollectionBeforeChangeHook =>
  ({ data, operation, req }) => {
    if (operation !== 'create' || req.context[IMPORT_COMMAND]) return data
    const t = validationTranslator(req)
    const upload = req.context[UPLOAD] as ImportUpload | undefined
    if (!upload) refuse(req, t('import.error.noFile'))
    if (upload.truncated || upload.bytes.length > maxBytes) refuse(req, t('import.error.tooLarge', { mb: (maxBytes / 1024 / 1024).toFixed(1) }))
    const source = sniffExport(upload.bytes)
    if (!source) refuse(req, t('import.error.fileType'))
    return {
      ...data,
      file: path.basename(upload.name).slice(0, 200) || 'export',
      source,
      fileSize: upload.bytes.length,
      status: 'queued',
      progressDone: 0,
      progressTotal: 0,
      requestedBy: req.user?.id,
    }
  }

export const queueUploadedImport: CollectionAfterChangeHook = async ({ doc, operation, req }) => {
  if (operation !== 'create' || req.context[IMPORT_COMMAND]) return doc
  const upload = req.context[UPLOAD] as ImportUpload
  const db = await transactionDb(req)
  await db.execute(sql`insert into import_uploads (report_id, bytes) values (${doc.id}, ${upload.bytes}) on conflict (report_id) do nothing`)
  await enqueue(req, RUN_IMPORT_JOB, { reportId: doc.id as number }, { key: `run-import:${doc.id}` })
  return doc
}

const bool = (value: unknown) => value === true || value === 'true' || value === 'on'
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined)

/**
 * POST /api/import-reports/upload (multipart: `file`, and `_payload` with the
 * options as JSON: dryRun, siteOwner, pagesCategory, siteUrl, skipMedia).
 * Thin: it reads the upload and creates the report as the signed-in user;
 * the collection decides (access, the file's kind and size). 201 with the
 * report, which the page then polls (GET /api/import-reports/<id>).
 */
export async function handleImportUpload(req: PayloadRequest): Promise<Response> {
  const t = translatorFor(req)
  // The clear refusals first, before a byte of the file is read.
  if (!req.user) return errorResponse(401, { message: t('import.error.signIn') })
  if (!(await hasPermission(req, IMPORT_PERMISSION))) return errorResponse(403, { message: t('import.error.forbidden') })
  try {
    await addDataAndFileToRequest(req)
  } catch (error) {
    return errorResponse(413, { fields: { file: (error as Error).message || t('import.error.tooLarge', { mb: '?' }) } })
  }
  const file = req.file
  if (!file) return errorResponse(400, { fields: { file: t('import.error.noFile') } })
  const options = (req.data ?? {}) as Record<string, unknown>
  req.context[UPLOAD] = { name: file.name, bytes: file.data, truncated: (file as { truncated?: boolean }).truncated } satisfies ImportUpload
  try {
    const doc = await req.payload.create({
      collection: 'import-reports',
      data: {
        dryRun: bool(options.dryRun),
        siteOwner: text(options.siteOwner),
        pagesCategory: text(options.pagesCategory),
        siteUrl: text(options.siteUrl),
        skipMedia: bool(options.skipMedia),
      } as never,
      overrideAccess: false,
      req,
    })
    return Response.json({ doc }, { status: 201 })
  } catch (error) {
    // Answered here in Payload's shape, naming the field, whatever host runs the endpoint
    // (the built server flattened a thrown ValidationError to "file: …" without its fields).
    if (!(error instanceof ValidationError)) throw error
    return errorResponse(400, { fields: Object.fromEntries(error.data.errors.map((e) => [e.path, e.message])) })
  }
}

type ReportDoc = {
  id: number
  file: string
  source: ImportSource | 'inkwell'
  status: 'queued' | 'running' | 'done' | 'failed'
  dryRun?: boolean | null
  siteOwner?: string | null
  pagesCategory?: string | null
  siteUrl?: string | null
  skipMedia?: boolean | null
}

const setState = (payload: Payload, id: number, data: Record<string, unknown>) =>
  payload.update({ collection: 'import-reports', id, data: data as never, overrideAccess: true, depth: 0 })

/**
 * The progress a job reports, written to the report at most every half
 * second (a 10,000-post import reports every 50 items) and in order.
 */
function progressWriter(payload: Payload, id: number) {
  let last = 0
  let chain: Promise<unknown> = Promise.resolve()
  const write = (done: number, total: number) => {
    chain = chain.then(() => query(payload, `update import_reports set progress_done = $2, progress_total = $3 where id = $1`, [id, done, total])).catch(() => {})
  }
  return {
    progress(done: number, total: number) {
      const now = Date.now()
      if (done < total && now - last < 500) return
      last = now
      write(done, total)
    },
    settled: () => chain,
  }
}

/** The `run-import` job: imports the uploaded file of one report, keeping its progress and its report there. */
export const runUploadedImport =
  (outbound: OutboundPolicy) =>
  async (payload: Payload, { reportId }: RunImportData): Promise<void> => {
    const doc = (await payload.findByID({ collection: 'import-reports', id: reportId, depth: 0, overrideAccess: true, disableErrors: true })) as ReportDoc | null
    if (!doc || doc.status === 'done') return
    const [upload] = await query<{ bytes: Buffer }>(payload, `select bytes from import_uploads where report_id = $1`, [reportId])
    if (!upload) {
      if (doc.status !== 'failed') await setState(payload, reportId, { status: 'failed', error: 'The uploaded file is no longer stored; upload it again.' })
      return
    }
    if (doc.source === 'inkwell') return
    await setState(payload, reportId, { status: 'running', error: null })
    // The importers read a file (as a stream): the bytes go to this process's temporary disk for the run only.
    const dir = await mkdtemp(path.join(tmpdir(), 'inkwell-import-'))
    const file = path.join(dir, doc.source === 'ghost' ? 'export.json' : 'export.xml')
    const progress = progressWriter(payload, reportId)
    const io = { log: (line: string) => payload.logger.info(`import ${reportId}: ${line}`), progress: progress.progress }
    try {
      await writeFile(file, upload.bytes)
      const common = {
        file,
        dryRun: !!doc.dryRun,
        pagesCategory: doc.pagesCategory || 'Pages',
        owner: doc.siteOwner || undefined,
        media: doc.skipMedia ? undefined : new MediaImporter({ outbound }),
        io,
      }
      const report: ImportReport = doc.source === 'ghost' ? await importGhost(payload, { ...common, siteUrl: doc.siteUrl || undefined }) : await importWordPress(payload, common)
      await progress.settled()
      const done = await query<{ total: number }>(payload, `select greatest(progress_total, 1)::int as total from import_reports where id = $1`, [reportId])
      const total = Number(done[0]?.total ?? 1)
      await setState(payload, reportId, { status: 'done', summary: report.summary(), report: { ...report.toJSON(), file: doc.file, lines: report.lines().map((l) => l.replace(file, doc.file)) }, progressDone: total, progressTotal: total })
      await query(payload, `delete from import_uploads where report_id = $1`, [reportId])
    } catch (error) {
      await progress.settled()
      const message = (error as Error).message.replaceAll(file, doc.file)
      await setState(payload, reportId, { status: 'failed', error: message.slice(0, 2000) })
      // A bad file stays bad: no retry, and its bytes go. Anything else is retried (the import is idempotent).
      if (error instanceof CommandFailure) await query(payload, `delete from import_uploads where report_id = $1`, [reportId])
      else throw error
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
