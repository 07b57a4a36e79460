/** `npm run migrate`: applies the committed migrations to DATABASE_URL (or the embedded database). */
import { runMigrations } from '../src/lib/boot'

// A one-shot process: it must not take jobs from the queue's workers.
await runMigrations({ log: console.log, overrides: { worker: false } })
process.exit(0)
