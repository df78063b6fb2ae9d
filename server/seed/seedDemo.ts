import type { Database } from '../db/database';
import type { DemoLogin, DemoTenant } from './demoData';
import { setDemoPasswords, type PasswordSignInTenant } from './demoPasswords';
import { seedDemoData, type SeedOptions } from './seedDemoData';
import { isDemoTenant, type DemoFlag } from '../../tenant/demoFlag';
import { portalCommand } from '../runtime/portalCommand';

export { isDemoTenant, type DemoFlag };

/**
 * The demo's seed, the one every command that seeds the demo runs (`npm start`, `portal dev`,
 * `portal studio`, `portal preview`, `portal db seed`), so each keeps the promise of README "Demo
 * tenants": the demo data of every demo tenant (seedDemoData, once per tenant) and, on those with
 * password or kicker-account sign-in, the demo password for every demo login that has none yet
 * (setDemoPasswords; a database seeded before without them gets them too). Other tenants are left
 * as they are. Returns the demo logins.
 *
 * `everyTenant` seeds the others too: only for a throwaway database whose screens must show
 * subscribers whatever the tenant file says (the QA preview's screenshots, docs/operators.md "QA: the preview
 * and screenshots").
 */
export async function seedDemo(
  db: Database,
  tenants: Array<DemoTenant & PasswordSignInTenant & DemoFlag>,
  opts: SeedOptions & { everyTenant?: boolean } = {},
): Promise<DemoLogin[]> {
  const { everyTenant, ...seedOptions } = opts;
  const demos = everyTenant ? tenants : tenants.filter(isDemoTenant);
  const logins = await seedDemoData(db, demos, seedOptions);
  await setDemoPasswords(db, demos, logins);
  return logins;
}

/**
 * What a tenant without demo data is told to do instead (`portal start`, `portal dev`, `portal db
 * seed` and the studio): its subscribers come from its order system, through `portal import` or the
 * operator API (docs/going-live.md "Going live with your order system").
 */
export function bringDataInHint(tenantId: string, database?: CommandDatabase): string {
  const env = commandEnvironment(database);
  const portal = portalCommand();
  return `no demo data (the tenant file is not marked "demo": true): bring its subscribers in with \`${env}${portal} import ${tenantId} <folder of NDJSON files>\` or through the operator API (a key from \`${env}${portal} keys create ${tenantId} --scope read,write,import\`); docs/going-live.md "Going live with your order system"`;
}

/**
 * The database a server runs on, as a `portal` command must name it to reach the same one: a
 * workbench (`portal dev`, `studio`, `preview`) runs on its own in `<PORTAL_DATA_DIR>/<name>`, which
 * the process's settings do not say (cli/commands/serverOptions.ts workbenchServerOptions).
 */
export interface CommandDatabase {
  dataDir: string;
  databaseUrl?: string;
}

/**
 * The settings of this process a command needs to reach the same tenant files and database: a
 * command run without them reads tenants/ and data/ (docs/going-live.md "One environment for the
 * server and the commands"). With `database`, the server's own database is named instead of the
 * process's settings. The connection string is named, not written out.
 */
export function commandEnvironment(database?: CommandDatabase): string {
  const parts = process.env.PORTAL_TENANTS_DIR
    ? [`PORTAL_TENANTS_DIR=${process.env.PORTAL_TENANTS_DIR}`]
    : [];
  if (database) {
    if (database.databaseUrl) parts.push("DATABASE_URL=<the server's>");
    else parts.push(`PORTAL_DATA_DIR=${database.dataDir}`);
  } else {
    if (process.env.PORTAL_DATA_DIR) parts.push(`PORTAL_DATA_DIR=${process.env.PORTAL_DATA_DIR}`);
    if (process.env.DATABASE_URL) parts.push("DATABASE_URL=<the server's>");
  }
  return parts.map((part) => `${part} `).join('');
}
