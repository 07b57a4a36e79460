/** `npm run build [-- --if-stale]`: builds the admin/API host and the reader site for production. */
import { build, buildIfStale } from '../src/lib/build'

if (process.argv.includes('--if-stale')) await buildIfStale()
else await build()
