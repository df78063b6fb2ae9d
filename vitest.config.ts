import { defineConfig } from 'vitest/config';

/**
 * Three projects:
 *  - unit: pure tests (domain, validator, CLI, engine components).
 *  - embedded: integration tests (`*.int.test.ts`) against the embedded PostgreSQL 18 cluster the
 *    portal runs by default; one cluster per run, a fresh database per test file cloned from a
 *    migrated template (tests/support/databaseGlobalSetup.ts), so files run in parallel.
 *  - postgres: the same integration tests against DATABASE_URL, or a private cluster of the
 *    system's PostgreSQL (Debian's 15). Skipped when PORTAL_TEST_POSTGRES=0 (scripts/test.sh sets
 *    it when PostgreSQL binaries are missing outside CI).
 */
const withPostgres = process.env.PORTAL_TEST_POSTGRES !== '0';

const integration = (name: 'embedded' | 'postgres') => ({
  test: {
    name,
    include: ['tests/**/*.int.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node' as const,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['tests/support/databaseGlobalSetup.ts'],
    env: { PORTAL_TEST_DB: name },
  },
});

export default defineConfig({
  test: {
    // Two test files at a time. Vitest's default is one fewer than the cores, which on the project's
    // 2-core machines is one: the integration files then wait on PostgreSQL with a core idle.
    // Measured on such a machine (docs/testing.md "Tests and measurements"): unit + embedded 324 s
    // with two, 328 s with three, 710 s with one (a CI run beside other work); postgres 196 s with
    // two, 396 s with one.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: ['tests/**/*.int.test.ts', 'tests/e2e/**', 'node_modules/**'],
          environment: 'node',
        },
      },
      integration('embedded'),
      ...(withPostgres ? [integration('postgres')] : []),
    ],
  },
});
