import node from '@astrojs/node'
import { defineConfig } from 'astro/config'

// The reader site. Served by Inkwell's one-origin server (src/server), which
// imports the built handler; `standalone` mode gives static files + SSR in one handler.
// No `site`: absolute URLs come from BASE_URL in the typed configuration (src/lib/env.ts) at run time.
export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  trailingSlash: 'ignore',
  security: { checkOrigin: true },
  build: { assets: '_astro' },
  // Every script is emitted as a file, never inlined into the page: the site's
  // Content-Security-Policy allows scripts from 'self' only (src/server/securityHeaders.ts).
  vite: { logLevel: 'warn', build: { assetsInlineLimit: 0 } },
})
