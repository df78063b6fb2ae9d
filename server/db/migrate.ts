/**
 * Applies the plain-SQL migrations in `server/db/migrations/NNN_name.sql` in order, each in its own
 * transaction, and records them in `schema_migrations` (docs/architecture.md "Data and the server":
 * migrations run at start-up). Several server instances may start at once against one PostgreSQL: every step
 * takes a transaction-scoped advisory lock first, so one instance applies a migration and the others
 * wait, then see it recorded and skip it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from './database';

/** Default folder of the migration files, next to this module. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Key of the advisory lock every migration step holds (any constant shared by all instances). */
const MIGRATION_LOCK_KEY = 727_150_001;

const MIGRATION_FILE = /^(\d{3,})_[a-z0-9_]+\.sql$/;

export interface Migration {
  /** File name without `.sql`, e.g. `001_initial` — the value recorded in schema_migrations. */
  name: string;
  sql: string;
}

export async function loadMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  const seen = new Map<string, string>();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = MIGRATION_FILE.exec(file);
    if (!match) {
      throw new Error(
        `${dir}/${file}: migration files are named NNN_snake_case_name.sql, e.g. 002_add_holidays.sql`,
      );
    }
    const previous = seen.get(match[1]);
    if (previous) throw new Error(`${dir}: migrations ${previous} and ${file} share the number ${match[1]}`);
    seen.set(match[1], file);
    migrations.push({ name: file.slice(0, -'.sql'.length), sql: await readFile(`${dir}/${file}`, 'utf8') });
  }
  return migrations;
}

async function lock(tx: Queryable): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
}

async function appliedNames(tx: Queryable): Promise<Set<string>> {
  const rows = await tx.query<{ name: string }>('select name from schema_migrations');
  return new Set(rows.map((row) => row.name));
}

/** Applies every migration not yet recorded; returns the names it applied (empty when up to date). */
export async function migrate(db: Database, opts: { dir?: string } = {}): Promise<string[]> {
  const migrations = await loadMigrations(opts.dir);

  const alreadyApplied = await db.transaction(async (tx) => {
    await lock(tx);
    // schema_migrations is bookkeeping of the whole database, the one table without tenant_id.
    await tx.query(
      `create table if not exists schema_migrations (
         name text primary key,
         applied_at timestamptz not null default now()
       )`,
    );
    return appliedNames(tx);
  });

  const applied: string[] = [];
  for (const migration of migrations) {
    if (alreadyApplied.has(migration.name)) continue;
    const didApply = await db.transaction(async (tx) => {
      await lock(tx);
      // Another instance may have applied it while this one waited for the lock.
      if ((await appliedNames(tx)).has(migration.name)) return false;
      try {
        await tx.query(migration.sql);
      } catch (error) {
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query('insert into schema_migrations (name) values ($1)', [migration.name]);
      return true;
    });
    if (didApply) applied.push(migration.name);
  }
  return applied;
}
