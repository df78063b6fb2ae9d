import type { Command } from 'commander';

/** `portal db migrate|seed`: database chores against DATABASE_URL or the embedded PostgreSQL. */
export function registerDb(program: Command): void {
  const db = program
    .command('db')
    .description('database commands (DATABASE_URL, or the embedded PostgreSQL under data/)');
  db.command('migrate')
    .description('apply pending SQL migrations')
    .action(async () => {
      await withDatabase(async (database) => {
        const { migrate } = await import('../../server/db/migrate');
        const applied = await migrate(database);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'up to date');
      });
    });
  db.command('seed')
    .description(
      'migrate, then add the demo data and demo passwords of every demo tenant, as npm start does (idempotent)',
    )
    .action(async () => {
      await withDatabase(async (database) => {
        const { migrate } = await import('../../server/db/migrate');
        const { seedDemo, hasPasswordSignIn, isDemoTenant, bringDataInHint, DEMO_PASSWORD } =
          await import('../../server/seed');
        const { loadValidTenants } = await import('./loadValidTenants');
        await migrate(database);
        const tenants = await loadValidTenants();
        const logins = await seedDemo(database, tenants);
        for (const login of logins)
          console.log(`${login.tenantId.padEnd(18)} ${login.email.padEnd(40)} ${login.description}`);
        for (const tenant of tenants.filter((candidate) => !isDemoTenant(candidate)))
          console.log(`${tenant.id.padEnd(18)} ${bringDataInHint(tenant.id)}`);
        const passwordTenants = tenants
          .filter((tenant) => isDemoTenant(tenant) && hasPasswordSignIn(tenant))
          .map((tenant) => tenant.id);
        if (passwordTenants.length)
          console.log(`password sign-in (${passwordTenants.join(', ')}): ${DEMO_PASSWORD}`);
      });
    });
}

/**
 * Opens DATABASE_URL, or the embedded PostgreSQL under data/ (PORTAL_DATA_DIR), for one command, and
 * closes it. It says which on stderr, and says so loudly when the embedded one is new: a command
 * run without the server's PORTAL_DATA_DIR (or with a typo in it) would otherwise answer from an
 * empty database of its own, "no keys", "no events" (docs/going-live.md "One environment for the
 * server and the commands").
 */
export async function withDatabase(fn: (db: import('../../server/db/database').Database) => Promise<void>) {
  const { openDatabase } = await import('../../server/db/openDatabase');
  const { DATA_DIR } = await import('../paths');
  const { displayPath } = await import('../../tenant/sources');
  const { existsSync } = await import('node:fs');
  const path = await import('node:path');
  const url = process.env.DATABASE_URL;
  const dataDir = process.env.PORTAL_DATA_DIR ?? DATA_DIR;
  const exists = existsSync(path.join(dataDir, 'postgres'));
  console.error(whichDatabase({ url, dataDir: displayPath(dataDir), exists }));
  const database = await openDatabase({
    url,
    dataDir,
    // While `npm start` runs, its PostgreSQL is used, never stopped.
    shareRunning: true,
  });
  try {
    // A database that was there but holds nothing a server or import leaves is as likely a stray
    // one (a command run once before without the server's settings) as a new one: said every time.
    if (url || exists) {
      const [row] = await database.query<{ empty: boolean }>(
        `select not exists (select 1 from users) and not exists (select 1 from subscriptions)
                and not exists (select 1 from operator_keys) as empty`,
      );
      if (row?.empty) console.error(EMPTY_DATABASE);
    }
    await fn(database);
  } finally {
    await database.close();
  }
}

const EMPTY_DATABASE =
  "database: it holds no accounts, subscriptions or API keys yet. If the server's data is elsewhere, run the command with the server's PORTAL_DATA_DIR (or DATABASE_URL).";

/** The line a command says its database with (withDatabase). */
export function whichDatabase(where: { url?: string; dataDir: string; exists: boolean }): string {
  if (where.url) return `database: DATABASE_URL (${databaseName(where.url)})`;
  if (where.exists) return `database: the embedded PostgreSQL in ${where.dataDir}`;
  return (
    `database: a new, empty embedded PostgreSQL in ${where.dataDir}: nothing was there. ` +
    "If the server's data is elsewhere, run the command with the server's PORTAL_DATA_DIR (or DATABASE_URL)."
  );
}

/** A connection string's host and database, without its user or password. */
function databaseName(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'local socket'}${parsed.pathname}`;
  } catch {
    return 'not a URL';
  }
}
