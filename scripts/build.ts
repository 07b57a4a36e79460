/** `npm run build`: builds the admin/API host and the reader site for production. */
import { build } from '../src/lib/build'

await build()
