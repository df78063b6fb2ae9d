/**
 * Builds a tenant's demo data set in memory — a pure function of (tenant, today): the same input
 * gives the same rows, ids and logins on every run (seeded Prng, no Math.random, no clock reads).
 * seedDemoData.ts writes it to the database.
 *
 * The set is built so every screen of every demo tenant has something real to show (docs/architecture.md
 * "Data and the server"). Each entity is a module of its own under entities/, run in the order of
 * seedModules.ts; the personas are described in entities/businessPartners.ts.
 */
import { type DemoDataSet, type DemoTenant, createSeedContext } from './context';
import { SEED_MODULES } from './seedModules';

export { type DemoDataSet, type DemoTenant, demoSeedFor } from './context';
export { SHARED_DEMO_EMAIL } from './entities/businessPartners';
export type { DemoLogin } from './entities/logins';

export function buildDemoData(tenant: DemoTenant, todayDate: Date): DemoDataSet {
  const ctx = createSeedContext(tenant, todayDate);
  for (const module of SEED_MODULES) module.build?.(ctx);
  return ctx.data;
}
