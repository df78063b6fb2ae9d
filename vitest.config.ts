import { defineConfig } from 'vitest/config';

/**
 * Three projects:
 *  - unit: pure tests (domain, validator, CLI, engine components).
 *  - pglite: integration tests (`*.int.test.ts`) against embedded PGlite.
 *  - postgres: the same integration tests against a private PostgreSQL cluster started by
 *    tests/support/postgresGlobalSetup.ts (initdb + pg_ctl in a temp folder). Skipped when
 *    PORTAL_TEST_POSTGRES=0 (scripts/test.sh sets it when PostgreSQL binaries are missing).
 */
const withPostgres = process.env.PORTAL_TEST_POSTGRES !== '0';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: ['tests/**/*.int.test.ts', 'tests/e2e/**', 'node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'pglite',
          include: ['tests/**/*.int.test.ts'],
          exclude: ['tests/e2e/**', 'node_modules/**'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          env: { PORTAL_TEST_DB: 'pglite' },
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                name: 'postgres',
                include: ['tests/**/*.int.test.ts'],
                exclude: ['tests/e2e/**', 'node_modules/**'],
                environment: 'node',
                testTimeout: 60_000,
                hookTimeout: 120_000,
                globalSetup: ['tests/support/postgresGlobalSetup.ts'],
                env: { PORTAL_TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
