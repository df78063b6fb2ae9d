/**
 * vitest globalSetup of the integration projects: one PostgreSQL cluster per test run and one
 * migrated template database in it; every test file then gets a fresh database cloned from the
 * template (tests/support/database.ts), so files run in parallel without seeing each other's rows.
 *
 *  - `embedded` project: the cluster the portal itself runs by default (server/db/embeddedPostgres.ts,
 *    PostgreSQL 18 from the npm registry), in a temp folder, durability off (throw-away data).
 *  - `postgres` project: DATABASE_URL when it is set (a role that may create databases), else a
 *    private cluster of the system's PostgreSQL (Debian's 15 in CI: the oldest major we promise).
 *
 * Databases of the run are named `<template>_<n>` and dropped at the end.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** postgres:// URL of a maintenance database of the test cluster (may create databases). */
    testAdminUrl: string;
    /** Name of the migrated template database every test file clones. */
    testTemplate: string;
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.name === 'postgres' ? 'postgres' : 'embedded';
  let adminUrl: string;
  let stopCluster: () => Promise<void>;

  if (kind === 'embedded') {
    const { startEmbeddedPostgres } = await import('../../server/db/embeddedPostgres');
    const root = await mkdtemp(path.join(os.tmpdir(), 'portal-test-pg-'));
    const cluster = await startEmbeddedPostgres({ dataDir: path.join(root, 'postgres'), throwAway: true });
    adminUrl = cluster.adminUrl;
    stopCluster = async () => {
      await cluster.stop();
      await rm(root, { recursive: true, force: true });
    };
  } else if (process.env.DATABASE_URL) {
    // The server's own database name stays untouched: the run works in databases of its own.
    adminUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
    stopCluster = async () => undefined;
  } else {
    const { startSystemPostgres } = await import('../../scripts/systemPostgres');
    const cluster = await startSystemPostgres();
    adminUrl = cluster.adminUrl;
    stopCluster = cluster.stop;
  }

  const template = `portal_test_${process.pid}_${Date.now().toString(36)}`;
  const { default: pg } = await import('pg');
  const { createDatabaseIfMissing, openDatabase } = await import('../../server/db/openDatabase');
  const { migrate } = await import('../../server/db/migrate');

  const dropRunDatabases = async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1`,
        [`${template}%`],
      );
      for (const { datname } of rows)
        await admin.query(`drop database if exists ${admin.escapeIdentifier(datname)} with (force)`);
    } finally {
      await admin.end();
    }
  };

  try {
    await createDatabaseIfMissing(adminUrl, template);
    const db = await openDatabase({ url: withDatabase(adminUrl, template), poolSize: 2 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
  } catch (error) {
    await dropRunDatabases().catch(() => undefined);
    await stopCluster();
    throw error;
  }

  project.provide('testAdminUrl', adminUrl);
  project.provide('testTemplate', template);
  return async () => {
    await dropRunDatabases().catch((error) =>
      console.warn(`could not drop the test databases: ${(error as Error).message}`),
    );
    await stopCluster();
  };
}
