/**
 * The commands' seed (server/seed/seedDemo.ts; README "Demo tenants"): demo people and publications
 * only for tenant files marked `"demo": true`. A publisher's tenant — what `portal new` writes —
 * stays empty, in every table the portal keeps per tenant, however often the seed runs; the QA
 * preview's own database may ask for every tenant.
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { isDemoTenant, seedDemo } from '../../../server/seed';
import { newTenantTemplate } from '../../../tenant';
import { getTestDatabase, testDatabaseKind, uniqueTenantId } from '../../support/database';
import { makeServerTenant } from '../../support/builders';

const TODAY = new Date(Date.UTC(2026, 2, 15));

const tenantOf = (prefix: string, demo: boolean | undefined) => {
  const id = uniqueTenantId(prefix);
  const file = JSON.parse(newTenantTemplate(id)) as Record<string, unknown>;
  return makeServerTenant({ ...file, id, ...(demo === undefined ? {} : { demo }) });
};

/** Rows of the tenant in every table that has a tenant_id column. */
async function rowsOf(db: Database, tenantId: string): Promise<Record<string, number>> {
  const tables = await db.query<{ table_name: string }>(
    `select distinct c.table_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE'
      order by c.table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const [row] = await db.query<{ n: number }>(
      `select count(*)::int as n from "${table}" where tenant_id = $1`,
      [tenantId],
    );
    if (row.n > 0) counts[table] = row.n;
  }
  return counts;
}

describe(`seedDemo (${testDatabaseKind()})`, () => {
  it('leaves a tenant made with portal new empty, and fills the demo tenant beside it', async () => {
    const db = await getTestDatabase();
    const fresh = tenantOf('seed-new', undefined);
    const demo = tenantOf('seed-demo', true);
    expect(fresh.demo).toBe(false); // the schema's default: a new tenant is no demo
    expect([isDemoTenant(fresh), isDemoTenant(demo)]).toEqual([false, true]);

    const logins = await seedDemo(db, [fresh, demo], { today: TODAY });
    // Run again, as every start does: still nothing for the publisher's tenant.
    await seedDemo(db, [fresh, demo], { today: TODAY });

    expect(logins.length).toBeGreaterThan(0);
    expect(new Set(logins.map((login) => login.tenantId))).toEqual(new Set([demo.id]));
    expect(await rowsOf(db, fresh.id)).toEqual({});
    const filled = await rowsOf(db, demo.id);
    for (const table of ['users', 'business_partners', 'publications', 'subscriptions', 'demo_seeds'])
      expect(filled[table], table).toBeGreaterThan(0);
  });

  it('an explicit "demo": false stays empty too; the preview may seed every tenant of its own database', async () => {
    const db = await getTestDatabase();
    const off = tenantOf('seed-off', false);
    expect(await seedDemo(db, [off], { today: TODAY })).toEqual([]);
    expect(await rowsOf(db, off.id)).toEqual({});
    const logins = await seedDemo(db, [off], { today: TODAY, everyTenant: true });
    expect(logins.every((login) => login.tenantId === off.id)).toBe(true);
    expect((await rowsOf(db, off.id)).users).toBeGreaterThan(0);
  });
});
