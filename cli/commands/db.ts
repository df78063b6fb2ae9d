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

/** Opens DATABASE_URL, or the embedded PostgreSQL under data/ (PORTAL_DATA_DIR), for one command, and closes it. */
export async function withDatabase(fn: (db: import('../../server/db/database').Database) => Promise<void>) {
  const { openDatabase } = await import('../../server/db/openDatabase');
  const { DATA_DIR } = await import('../paths');
  const database = await openDatabase({
    url: process.env.DATABASE_URL,
    dataDir: process.env.PORTAL_DATA_DIR ?? DATA_DIR,
    // While `npm start` runs, its PostgreSQL is used, never stopped.
    shareRunning: true,
  });
  try {
    await fn(database);
  } finally {
    await database.close();
  }
}
