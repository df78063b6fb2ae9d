/**
 * Writes the demo data of demoData.ts into the database, one transaction per tenant.
 *
 * Idempotent: a tenant recorded in demo_seeds is skipped (its logins are still returned, they are a
 * pure function of the tenant). Recording comes first in the transaction, so when two server
 * instances seed at once the second waits on the first's demo_seeds row and then skips.
 */
import type { Database, Queryable } from '../db/database';
import { type DemoDataSet, type DemoLogin, type DemoTenant, buildDemoData } from './demoData';
import { SEED_MODULES } from './seedModules';

export interface SeedOptions {
  /** Reference day of the generated dates (UTC day); defaults to the moment of the call. */
  today?: Date;
}

/** Each seed module writes the tables it owns, in list order (foreign keys point backwards in the list). */
async function writeDataSet(tx: Queryable, data: DemoDataSet): Promise<void> {
  for (const module of SEED_MODULES) await module.insert?.(tx, data);
}

/**
 * Seeds every tenant not seeded yet and returns the demo logins of all of them (printed at start,
 * DESIGN.md "Data and the server"). Users get no password (magic-link login).
 */
export async function seedDemoData(
  db: Database,
  tenants: DemoTenant[],
  opts: SeedOptions = {},
): Promise<DemoLogin[]> {
  const today = opts.today ?? new Date();
  const logins: DemoLogin[] = [];
  let wrote = false;
  for (const tenant of tenants) {
    const data = buildDemoData(tenant, today);
    await db.transaction(async (tx) => {
      const claimed = await tx.query(
        `insert into demo_seeds (tenant_id, seed, seeded_at) values ($1, $2, now())
         on conflict (tenant_id) do nothing returning tenant_id`,
        [tenant.id, data.seed],
      );
      if (claimed.length === 0) return; // seeded before
      await writeDataSet(tx, data);
      wrote = true;
    });
    logins.push(...data.logins);
  }
  // Fresh tables have no planner statistics until autovacuum gets round to them (it waits for 50
  // changed rows per table): the planner then takes every table for one row and GET /subscriptions
  // ran 4 ms instead of under 1 (bench/run.ts). A real publisher's tables get analysed as they grow.
  if (wrote) await db.query('analyze');
  return logins;
}
