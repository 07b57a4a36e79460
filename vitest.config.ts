import { defineConfig } from 'vitest/config'

/**
 * Three layers, so a failure says which one broke:
 *  unit         pure functions, no services
 *  integration  Payload's Local API on a fresh PostgreSQL database per file
 *  e2e          the built app started the README's way, driven by Chromium
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 0 },
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
          // After unit and integration have finished: browser tests on a machine
          // also busy with integration workers were slow enough to time out.
          sequence: { groupOrder: 1 },
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
