/**
 * The database of integration tests (`*.int.test.ts`): one migrated database per test process,
 * shared by every test in it (a PGlite instance costs ~3 s and ~750 MB, DESIGN.md "The stack").
 *
 *  - pglite project (PORTAL_TEST_DB=pglite, the default): embedded PGlite in memory.
 *  - postgres project: the private cluster started by tests/support/postgresGlobalSetup.ts.
 *
 * Tests share the database, so each test file works in its own tenant ids (e.g. `t-seed-1`), never
 * in another file's.
 */
import { inject } from 'vitest';
import type { Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { openDatabase } from '../../server/db/openDatabase';

let database: Promise<Database> | undefined;

export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.PORTAL_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

async function open(): Promise<Database> {
  let db: Database;
  if (testDatabaseKind() === 'postgres') {
    const url = inject('postgresUrl') ?? process.env.PORTAL_TEST_POSTGRES_URL;
    if (!url) throw new Error('no PostgreSQL URL: the postgres project needs tests/support/postgresGlobalSetup.ts as globalSetup');
    db = await openDatabase({ url });
  } else {
    db = await openDatabase({ dataDir: 'memory://' });
  }
  await migrate(db);
  return db;
}

/** The shared, migrated test database of this test process (opened on first use). */
export function getTestDatabase(): Promise<Database> {
  database ??= open();
  return database;
}

/** Closes the shared database (optional: the worker's exit closes it too). */
export async function closeTestDatabase(): Promise<void> {
  const opened = database;
  database = undefined;
  if (opened) await (await opened).close();
}

/** A tenant id no other test file uses: `<prefix>-<random>` (tests share one database). */
export function uniqueTenantId(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
}
