/**
 * Moving in (issue 30), as one feature:
 * - `npm run blog -- import:wordpress <file.xml> [--dry-run] [--media-dir <uploads>] [--pages-category <name>] [--owner <login>]`
 *   reads a WordPress export (WXR 1.1/1.2) as a stream (wordpress.ts, wxr.ts);
 * - `npm run blog -- import:ghost <file.json> [--dry-run] [--url <old site>] …` a Ghost 4/5 export (ghost.ts);
 * - `npm run blog -- export:wordpress <file.xml>` writes WXR 1.2 for WordPress's importer (exportWordPress.ts);
 * - `npm run blog -- export:json <dir>` / `import:json <dir> [--dry-run]`: Inkwell's own lossless
 *   format, for a move to another Inkwell (inkwellJson.ts);
 * - content becomes Markdown through content.ts and the one sanitizer; images
 *   come over through the guarded outbound fetch or from disk (media.ts);
 * - every old id is kept (`import_sources`, store.ts), so a re-import changes nothing;
 * - old links answer 301: the official redirects plugin's `redirects`
 *   collection, read by the reader site when a page is not found
 *   (frontend/src/lib/api/redirects.ts, frontend/src/middleware.ts);
 * - each import's report is kept in `import-reports` (collections/ImportReports);
 * - the site owner (`import.run`) can also upload an export in the admin
 *   (/admin/import, admin/ImportView.tsx): the report document is the run,
 *   the `run-import` job imports it in any worker and keeps its progress
 *   there (uploadedImport.ts);
 * - comments by people without an account keep their name (`guestName` on replies).
 * Optional: without it, none of this exists and nothing else changes.
 */
import { redirectsPlugin } from '@payloadcms/plugin-redirects'
import type { Config, Field, Payload, Plugin } from 'payload'

import { ImportReports } from '../../../collections/ImportReports'
import { addCommands, addJobs, CommandFailure, type CommandIO } from '../../../jobs/commands'
import { can } from '../../access'
import { t, type Language } from '../../lib/i18n'
import { adminGroup, bothLanguages, collectionLabels } from '../../lib/i18n/labels'
import type { OutboundPolicy } from '../../lib/outboundFetch'
import { addToConfig } from '../addToConfig'
import { decorateCollection } from '../decorateCollection'
import { MediaImporter } from './media'
import type { ImportReport } from './report'
import { exportWordPress } from './exportWordPress'
import { importGhost } from './ghost'
import { exportJson, importJson } from './inkwellJson'
import { importWordPress } from './wordpress'
import { importAdmin } from './admin/importAdmin'
import { handleImportUpload, IMPORT_COMMAND, queueUploadedImport, requireUpload, RUN_IMPORT_JOB, runUploadedImport } from './uploadedImport'

/** How long one run of an uploaded import may take before pg-boss gives up on it (see addJobs below). */
export const RUN_IMPORT_EXPIRE_SECONDS = 6 * 60 * 60

export type ImportOptions = {
  outbound: OutboundPolicy
  /** The site's address: exports write absolute links with it. */
  baseUrl: string
  /** The largest export the admin accepts as an upload (UPLOAD_MAX_BYTES); bigger ones go through the commands. */
  uploadMaxBytes: number
}

/** The name a reply by someone without an account was signed with (imported comments). */
const guestName: Field = {
  name: 'guestName',
  label: bothLanguages('admin.field.replies.guestName.label'),
  type: 'text',
  maxLength: 100,
  access: { create: () => false, update: () => false },
  admin: { readOnly: true, position: 'sidebar', description: bothLanguages('admin.field.replies.guestName') },
}

/** The words of plugin-redirects' fields, which ships no Chinese: both languages from the catalogs (ours win over its English). */
const REDIRECT_WORDS = ['customUrl', 'documentToRedirect', 'fromUrl', 'internalLink', 'redirectType', 'toUrlType'] as const

function withRedirectWords(config: Config): Config {
  const words = (lang: Language) => ({ 'plugin-redirects': Object.fromEntries(REDIRECT_WORDS.map((w) => [w, t(lang, `admin.redirects.${w}`)])) })
  const translations = (config.i18n?.translations ?? {}) as Record<string, object>
  return { ...config, i18n: { ...config.i18n, translations: { ...translations, en: { ...translations.en, ...words('en') }, zh: { ...translations.zh, ...words('zh-CN') } } } }
}

type Parsed = { file: string; flags: Set<string>; values: Map<string, string> }

function parseArgs(command: string, args: string[], valued: string[], flags: string[]): Parsed {
  const values = new Map<string, string>()
  const set = new Set<string>()
  const rest: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (valued.includes(a)) {
      const v = args[++i]
      if (v === undefined) throw new CommandFailure(`${command}: ${a} needs a value`)
      values.set(a, v)
    } else if (flags.includes(a)) set.add(a)
    else if (a.startsWith('--')) throw new CommandFailure(`${command}: unknown option ${a}`)
    else rest.push(a)
  }
  if (rest.length !== 1) throw new CommandFailure(`${command} needs one file: npm run blog -- ${command} <file>`)
  return { file: rest[0]!, flags: set, values }
}

async function keepReport(payload: Payload, report: ImportReport, status: 'done' | 'failed', io: CommandIO): Promise<void> {
  for (const line of report.lines()) io.log(line)
  if (report.dryRun) return
  await payload.create({
    collection: 'import-reports' as never,
    data: { file: report.file, source: report.source, status, dryRun: false, summary: report.summary(), report: { ...report.toJSON(), lines: report.lines() } } as never,
    overrideAccess: true,
    // The report of an import this command ran: no upload to require, no job to queue.
    context: { [IMPORT_COMMAND]: true },
  })
}

export const importPlugin =
  (options: ImportOptions): Plugin =>
  (config: Config): Config => {
    const redirects = redirectsPlugin({
      collections: ['articles'],
      overrides: {
        labels: collectionLabels('admin.redirects'),
        admin: { useAsTitle: 'from', group: adminGroup('settings'), description: bothLanguages('admin.redirects.description') },
        access: { read: () => true, create: can('settings.manage'), update: can('settings.manage'), delete: can('settings.manage') },
      },
    })
    // An import report is also the run of an import uploaded in the admin (uploadedImport.ts).
    const reports = {
      ...ImportReports,
      hooks: { ...ImportReports.hooks, beforeChange: [requireUpload(options.uploadMaxBytes)], afterChange: [queueUploadedImport] },
      endpoints: [{ path: '/upload', method: 'post' as const, handler: handleImportUpload }],
    }
    const withCollections = importAdmin(redirects(withRedirectWords(addToConfig({ collections: [reports] })(config) as Config)) as Config)
    const withGuests = decorateCollection(withCollections, 'replies', 'importPlugin', (c) => ({ ...c, fields: [...c.fields, guestName] }))
    // Tries, not a retry window: a failing import is a bug or a bad file, not an outage to wait out.
    // A big site with its images takes longer than pg-boss's default 15 minutes (10,000 posts without
    // images: ~2 min here; each image is a fetch of up to its timeout), and an expired run would be
    // failed mid-way and started again: 6 hours. A worker that dies is still noticed by the heartbeat in
    // seconds, and the retry (idempotent) brings only what is missing.
    const withJob = addJobs(withGuests, { [RUN_IMPORT_JOB]: { handler: runUploadedImport(options.outbound) as never, tries: 3, expireInSeconds: RUN_IMPORT_EXPIRE_SECONDS } })
    return addCommands(withJob, [
      {
        name: 'import:wordpress',
        usage: '<file.xml> [--dry-run] [--media-dir <uploads> | --no-media] [--pages-category <name>] [--owner <login>]',
        description: 'Import a WordPress export (WXR 1.1/1.2): posts, pages, terms, authors, comments, images, old links',
        run: async (payload, io, args) => {
          const parsed = parseArgs('import:wordpress', args ?? [], ['--media-dir', '--pages-category', '--owner'], ['--dry-run', '--no-media'])
          const media = parsed.flags.has('--no-media') ? undefined : new MediaImporter({ outbound: options.outbound, mediaDir: parsed.values.get('--media-dir') })
          const report = await importWordPress(payload, {
            file: parsed.file,
            dryRun: parsed.flags.has('--dry-run'),
            pagesCategory: parsed.values.get('--pages-category') ?? 'Pages',
            owner: parsed.values.get('--owner'),
            media,
            io,
          })
          await keepReport(payload, report, 'done', io)
          return report.summary()
        },
      },
      {
        name: 'import:ghost',
        usage: '<file.json> [--dry-run] [--url <old site address>] [--media-dir <content/images> | --no-media] [--pages-category <name>] [--owner <slug>]',
        description: 'Import a Ghost 4/5 export (JSON): posts, pages, tags, authors, images, old links',
        run: async (payload, io, args) => {
          const parsed = parseArgs('import:ghost', args ?? [], ['--url', '--media-dir', '--pages-category', '--owner'], ['--dry-run', '--no-media'])
          const media = parsed.flags.has('--no-media') ? undefined : new MediaImporter({ outbound: options.outbound, mediaDir: parsed.values.get('--media-dir') })
          const report = await importGhost(payload, {
            file: parsed.file,
            dryRun: parsed.flags.has('--dry-run'),
            pagesCategory: parsed.values.get('--pages-category') ?? 'Pages',
            owner: parsed.values.get('--owner'),
            siteUrl: parsed.values.get('--url'),
            media,
            io,
          })
          await keepReport(payload, report, 'done', io)
          return report.summary()
        },
      },
      {
        name: 'export:wordpress',
        usage: '<file.xml>',
        description: "Export articles, categories, tags, authors and replies as WXR 1.2, for WordPress's importer",
        run: async (payload, io, args) => exportWordPress(payload, parseArgs('export:wordpress', args ?? [], [], []).file, options.baseUrl, io),
      },
      {
        name: 'export:json',
        usage: '<dir>',
        description: 'Export everything (settings, users without passwords, media files, terms, articles, replies, follows) for another Inkwell',
        run: async (payload, io, args) => exportJson(payload, parseArgs('export:json', args ?? [], [], []).file, options.baseUrl, io),
      },
      {
        name: 'import:json',
        usage: '<dir> [--dry-run]',
        description: 'Import a folder written by export:json (again: nothing changes)',
        run: async (payload, io, args) => {
          const parsed = parseArgs('import:json', args ?? [], [], ['--dry-run'])
          const report = await importJson(payload, { dir: parsed.file, dryRun: parsed.flags.has('--dry-run'), io })
          await keepReport(payload, report, 'done', io)
          return report.summary()
        },
      },
    ])
  }
