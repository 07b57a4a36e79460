/** `npm run migrate`: applies the committed migrations to DATABASE_URL (or the embedded database). */
import { runMigrations } from '../src/lib/boot'

await runMigrations({ log: console.log })
process.exit(0)
