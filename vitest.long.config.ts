import { defineConfig } from 'vitest/config'

/**
 * Tests too long for `npm test` (which must stay well under 30 minutes):
 * `npm run test:long`. Each runs what an operator would live through at its
 * real length, e.g. the mail server down for 10 minutes under production's
 * retry settings (tests/long/smtp-outage.test.ts).
 */
export default defineConfig({
  test: {
    name: 'long',
    include: ['tests/long/**/*.test.ts'],
    globalSetup: ['tests/helpers/databaseSetup.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    hookTimeout: 120_000,
  },
})
