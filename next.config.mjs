import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Types are checked by `npm run typecheck`, not on every build.
  typescript: { ignoreBuildErrors: true },
  images: { unoptimized: true },
  // Loaded from node_modules at run time: svg-captcha reads its font file next to its own sources;
  // akismet-api's HTTP client (superagent → formidable) requires its plugins by computed paths.
  serverExternalPackages: ['svg-captcha', 'akismet-api'],
  // The admin's and API's route modules load on their first request instead of at start: the reader
  // site (most traffic, served beside Next in the same process) never needs them, and preloading
  // them all cost ~100 MB of resident memory in every web process.
  experimental: { preloadEntriesOnStart: false },
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
