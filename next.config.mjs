import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Types are checked by `npm run typecheck`, not on every build.
  typescript: { ignoreBuildErrors: true },
  images: { unoptimized: true },
  // Loaded from node_modules at run time: svg-captcha reads its font file next to its own sources.
  serverExternalPackages: ['svg-captcha'],
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
