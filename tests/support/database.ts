/**
 * The database of integration tests (`*.int.test.ts`): each test file gets a fresh database cloned
 * from the migrated template of the run (tests/support/databaseGlobalSetup.ts), so test files run
 * in parallel and never see each other's rows. Tests inside one file share it, so they still work
 * in their own tenant ids (e.g. `t-seed-1`).
 *
 *  - embedded project (PORTAL_TEST_DB=embedded, the default): the embedded PostgreSQL 18 cluster.
 *  - postgres project: DATABASE_URL, or a private cluster of the system's PostgreSQL 15.
 */
import { inject } from 'vitest';
import type { Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { createDatabaseIfMissing, openDatabase } from '../../server/db/openDatabase';

let database: Promise<Database> | undefined;
let counter = 0;

export function testDatabaseKind(): 'embedded' | 'postgres' {
  return process.env.PORTAL_TEST_DB === 'postgres' ? 'postgres' : 'embedded';
}

function urlOf(name: string): string {
  const url = new URL(inject('testAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A new database cloned from the run's migrated template, opened and migrated (a no-op unless a
 * test adds migrations). Most tests want the shared one of their file: getTestDatabase().
 */
export async function createTestDatabase(
  opts: { poolSize?: number } = {},
): Promise<{ db: Database; url: string }> {
  const template = inject('testTemplate');
  if (!template)
    throw new Error(
      'no test cluster: integration tests need tests/support/databaseGlobalSetup.ts as globalSetup',
    );
  counter += 1;
  const name = `${template}_${process.pid}_${counter}_${Math.random().toString(36).slice(2, 6)}`;
  await createDatabaseIfMissing(inject('testAdminUrl'), name, template);
  const url = urlOf(name);
  const db = await openDatabase({ url, poolSize: opts.poolSize ?? 5 });
  await migrate(db);
  return { db, url };
}

/** The migrated test database of this test file (created on first use). */
export function getTestDatabase(): Promise<Database> {
  database ??= createTestDatabase().then(({ db }) => db);
  return database;
}

/** Closes the file's database (optional: the worker's exit closes it too). */
export async function closeTestDatabase(): Promise<void> {
  const opened = database;
  database = undefined;
  if (opened) await (await opened).close();
}

/** A tenant id no other test uses: `<prefix>-<random>`. */
export function uniqueTenantId(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
}
