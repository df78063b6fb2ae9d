import type { Database } from '../db/database';
import type { DemoLogin, DemoTenant } from './demoData';
import { setDemoPasswords, type PasswordSignInTenant } from './demoPasswords';
import { seedDemoData, type SeedOptions } from './seedDemoData';

/**
 * The demo's seed, the one every command that seeds the demo runs (`npm start`, `portal dev`,
 * `portal studio`, `portal preview`, `portal db seed`), so each keeps the promise of README "Demo
 * tenants": the demo data of every tenant (seedDemoData, once per tenant) and, on tenants with
 * password or kicker-account sign-in, the demo password for every demo login that has none yet
 * (setDemoPasswords; a database seeded before without them gets them too). Returns the demo logins.
 */
export async function seedDemo(
  db: Database,
  tenants: Array<DemoTenant & PasswordSignInTenant>,
  opts: SeedOptions = {},
): Promise<DemoLogin[]> {
  const logins = await seedDemoData(db, tenants, opts);
  await setDemoPasswords(db, tenants, logins);
  return logins;
}
