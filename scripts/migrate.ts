/** `npm run migrate`: applies the committed migrations to DATABASE_URL (or the embedded database). */
import { runMigrations } from '../src/lib/boot'

// A one-shot process: it must not take jobs from the queue's workers.
process.env.WORKER = 'off'

await runMigrations({ log: console.log })
process.exit(0)
