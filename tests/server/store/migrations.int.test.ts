import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '../../../server/db/migrate';
import { getTestDatabase, testDatabaseKind } from '../../support/database';

describe(`migrations (${testDatabaseKind()})`, () => {
  it('records every migration file as applied', async () => {
    const db = await getTestDatabase();
    const files = (await loadMigrations()).map((m) => m.name);
    const rows = await db.query<{ name: string }>('select name from schema_migrations order by name');
    expect(rows.map((r) => r.name)).toEqual(files);
    expect(files[0]).toBe('001_initial');
  });

  it('applies nothing when run again', async () => {
    const db = await getTestDatabase();
    expect(await migrate(db)).toEqual([]);
    expect(await migrate(db)).toEqual([]);
  });

  it('gives every table but the migration log a tenant_id column', async () => {
    const db = await getTestDatabase();
    const rows = await db.query<{ table_name: string }>(
      `select t.table_name from information_schema.tables t
        where t.table_schema = current_schema() and t.table_type = 'BASE TABLE'
          and not exists (select 1 from information_schema.columns c
                           where c.table_schema = t.table_schema and c.table_name = t.table_name
                             and c.column_name = 'tenant_id')`,
    );
    expect(rows.map((r) => r.table_name)).toEqual(['schema_migrations']);
  });

  it('starts every primary key of the data tables with tenant_id', async () => {
    const db = await getTestDatabase();
    const rows = await db.query<{ table_name: string; first_column: string }>(
      `select tc.table_name, kcu.column_name as first_column
         from information_schema.table_constraints tc
         join information_schema.key_column_usage kcu
           on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
        where tc.table_schema = current_schema() and tc.constraint_type = 'PRIMARY KEY'
          and kcu.ordinal_position = 1`,
    );
    // The auth tables keep the exact shape the auth module asked for (random, globally unique keys).
    const exempt = new Set(['schema_migrations', 'sessions', 'login_tokens']);
    for (const row of rows.filter((r) => !exempt.has(r.table_name))) {
      expect(row, row.table_name).toMatchObject({ first_column: 'tenant_id' });
    }
  });

  it('applies two runs started together only once', async () => {
    const db = await getTestDatabase();
    await db.query('drop table if exists migrate_race_probe');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-migrations-'));
    try {
      // A migration that fails when applied twice (create table without "if not exists").
      await writeFile(
        `${dir}/900_race_probe.sql`,
        'create table migrate_race_probe (tenant_id text not null);',
      );
      const [a, b] = await Promise.all([migrate(db, { dir }), migrate(db, { dir })]);
      expect([...a, ...b]).toEqual(['900_race_probe']);
    } finally {
      await db.query('drop table if exists migrate_race_probe');
      await db.query(`delete from schema_migrations where name = '900_race_probe'`);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a badly named migration file and says how to name it', async () => {
    const db = await getTestDatabase();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-migrations-'));
    try {
      await writeFile(`${dir}/add-things.sql`, 'select 1;');
      await expect(migrate(db, { dir })).rejects.toThrow(/NNN_snake_case_name\.sql/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('housekeeping', () => {
  it('deletes expired tokens and old rate-limit windows and keeps live ones', async () => {
    const { deleteExpiredRows } = await import('../../../server/db/housekeeping');
    const db = await getTestDatabase();
    const tenant = `hk-${Math.random().toString(36).slice(2, 8)}`;
    const now = new Date();
    const old = new Date(now.getTime() - 3 * 86_400_000).toISOString();
    const soon = new Date(now.getTime() + 600_000).toISOString();
    await db.query(
      `insert into login_tokens (tenant_id, token_hash, email, purpose, expires_at) values ($1, $2, 'a@b.example', 'magic-link', $3), ($1, $4, 'a@b.example', 'magic-link', $5)`,
      [tenant, `${tenant}-old`, old, `${tenant}-live`, soon],
    );
    await db.query(
      `insert into rate_limits (tenant_id, bucket, window_start, hits) values ($1, 'x', $2, 3), ($1, 'y', $3, 1)`,
      [tenant, old, now.toISOString()],
    );
    await deleteExpiredRows(db, now);
    const tokens = await db.query<{ token_hash: string }>(
      `select token_hash from login_tokens where tenant_id = $1`,
      [tenant],
    );
    expect(tokens.map((t) => t.token_hash)).toEqual([`${tenant}-live`]);
    const windows = await db.query<{ bucket: string }>(
      `select bucket from rate_limits where tenant_id = $1`,
      [tenant],
    );
    expect(windows.map((w) => w.bucket)).toEqual(['y']);
  });
});
