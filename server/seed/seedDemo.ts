import type { Database } from '../db/database';
import type { DemoLogin, DemoTenant } from './demoData';
import { setDemoPasswords, type PasswordSignInTenant } from './demoPasswords';
import { seedDemoData, type SeedOptions } from './seedDemoData';

/** The part of a tenant file that marks it as a demo (schemas/tenant.schema.json `demo`). */
export interface DemoFlag {
  demo?: boolean;
}

/**
 * Whether the seed fills this tenant with demo people (README "Demo tenants"): only a tenant file
 * that says `"demo": true`. A publisher's tenant (the ones `portal new` writes) starts empty and
 * gets its subscribers from its order system (docs/going-live.md "Going live with your order system"): demo
 * subscribers there would be sent mails, counted in its insights and exported to its webhooks.
 */
export const isDemoTenant = (tenant: DemoFlag): boolean => tenant.demo === true;

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
export function bringDataInHint(tenantId: string): string {
  return `no demo data (the tenant file is not marked "demo": true): bring its subscribers in with \`npx portal import ${tenantId} <folder of NDJSON files>\` or through the operator API (a key from \`npx portal keys create ${tenantId} --scope read,write,import\`); docs/going-live.md "Going live with your order system"`;
}
