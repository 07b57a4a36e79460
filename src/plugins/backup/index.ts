/**
 * Backup and restore (issue 32 §2), as one feature:
 * - `npm run blog -- backup <dir>` writes a consistent backup of the database
 *   and the media while the site keeps serving (dump.ts);
 * - `npm run blog -- restore <dir> [--force]` restores one into an empty site,
 *   or replaces a site with `--force`; a damaged, truncated or foreign backup
 *   is refused before anything is touched (restore.ts, manifest.ts);
 * - with BACKUP_DIR set, the `backup-nightly` schedule (BACKUP_CRON, default
 *   02:30 in APP_TIMEZONE) writes `BACKUP_DIR/inkwell-<UTC time>` and keeps the
 *   newest BACKUP_KEEP (default 7).
 * Optional: without it, none of this exists and nothing else changes.
 */
import type { Config, Payload, Plugin } from 'payload'

import { addCommands, addSchedules, CommandFailure, type BlogCommand } from '../../../jobs/commands'
import { diskStore } from '../../lib/fileStore'
import { poolOf } from '../../lib/pool'
import { mediaStoreOf } from '../storage'
import { backupName, pruneBackups, writeBackup } from './dump'
import { restoreBackup } from './restore'

export type BackupOptions = {
  /** Where uploads live without the storage plugin's say (DATA_DIR/media); with it, its store (disk or bucket). */
  mediaDir: string
  /** The nightly schedule: where its backups go, when, and how many are kept. Off without `dir`. */
  nightly?: { dir: string; cron: string; keep: number }
}

function oneDirectory(command: string, args: string[], flags: string[] = []): { dir: string; flags: Set<string> } {
  const set = new Set<string>()
  const rest: string[] = []
  for (const a of args) {
    if (flags.includes(a)) set.add(a)
    else if (a.startsWith('--')) throw new CommandFailure(`${command}: unknown option ${a}`)
    else rest.push(a)
  }
  if (rest.length !== 1) throw new CommandFailure(`${command} needs one directory: npm run blog -- ${command} <dir>`)
  return { dir: rest[0]!, flags: set }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

export const backupPlugin =
  (options: BackupOptions): Plugin =>
  (config: Config): Config => {
    const mediaOf = (payload: Payload) => mediaStoreOf(payload) ?? diskStore(options.mediaDir)
    const commands: BlogCommand[] = [
      {
        name: 'backup',
        usage: '<dir>',
        description: 'Back up the database and the media into a new directory, while the site keeps serving',
        run: async (payload, io, args) => {
          const { dir } = oneDirectory('backup', args ?? [])
          const done = await writeBackup(poolOf(payload), mediaOf(payload), dir, io)
          return `backup written to ${done.dir}: ${done.tables} tables, ${done.rows} rows, ${done.files} media files, ${megabytes(done.bytes)}`
        },
      },
      {
        name: 'restore',
        usage: '<dir> [--force]',
        description: 'Restore a backup into an empty site (--force replaces this one); run it with the site stopped',
        run: async (payload, io, args) => {
          const { dir, flags } = oneDirectory('restore', args ?? [], ['--force'])
          const done = await restoreBackup(poolOf(payload), mediaOf(payload), dir, { force: flags.has('--force') }, io)
          return `restored ${done.rows} rows in ${done.tables} tables and ${done.files} media files from ${dir}: restart the site's processes`
        },
      },
    ]
    const withCommands = addCommands(config, commands)
    const nightly = options.nightly
    if (!nightly) return withCommands
    return addSchedules(withCommands, [
      {
        name: 'backup-nightly',
        cron: nightly.cron,
        description: `Back up into BACKUP_DIR (${nightly.dir}) and keep the newest ${nightly.keep}`,
        run: async (payload, io) => {
          const done = await writeBackup(poolOf(payload), mediaOf(payload), `${nightly.dir}/${backupName(new Date())}`, io)
          const removed = await pruneBackups(nightly.dir, nightly.keep)
          return `backup written to ${done.dir} (${done.rows} rows, ${done.files} files, ${megabytes(done.bytes)}); ${removed.length} older removed`
        },
      },
    ])
  }
