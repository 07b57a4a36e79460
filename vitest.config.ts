import { defineConfig } from 'vitest/config'

/**
 * Three layers, so a failure says which one broke:
 *  unit         pure functions, no services
 *  integration  Payload's Local API on a fresh PostgreSQL database per file
 *  e2e          the built app started the README's way, driven by Chromium
 */
export default defineConfig({
  test: {
    reporters: process.env.CI ? ['default'] : ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/helpers/databaseSetup.ts'],
          environment: 'node',
          pool: 'forks',
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/helpers/databaseSetup.ts', 'tests/helpers/e2eSetup.ts'],
          environment: 'node',
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
})
