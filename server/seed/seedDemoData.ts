/**
 * Writes the demo data of demoData.ts into the database, one transaction per tenant.
 *
 * Idempotent: a tenant recorded in demo_seeds is skipped (its logins are still returned, they are a
 * pure function of the tenant). Recording comes first in the transaction, so when two server
 * instances seed at once the second waits on the first's demo_seeds row and then skips.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database, Queryable } from '../db/database';
import { importSources, sourcesAt } from '../operator/import/importRecords';
import { withTenantLanguages } from '../operator/entities/orderSystemRecords';
import type { TenantLanguages } from '../../engine/domain/language';
import { type DemoDataSet, type DemoLogin, type DemoTenant, buildDemoData } from './demoData';
import { writeOrderSystemFixtures } from './orderSystemFixtures';
import { SEED_MODULES } from './seedModules';

export interface SeedOptions {
  /** Reference day of the generated dates (UTC day); defaults to the moment of the call. */
  today?: Date;
  /**
   * Where the order-system fixtures are written, one folder per tenant (`npm start`: data/seed,
   * to be read as examples of the import's files); a temporary folder, removed after, when missing.
   */
  fixturesDir?: string;
}

/**
 * The order system's data goes in through the import, as a publisher's does: NDJSON
 * files written from the data set, validated and merged by importRecords.ts in the seed's
 * transaction. Then each seed module writes the portal's own tables, in list order.
 */
async function writeDataSet(
  db: Database,
  tx: Queryable,
  data: DemoDataSet,
  languages: TenantLanguages,
  fixturesDir?: string,
) {
  const folder = fixturesDir
    ? path.join(fixturesDir, data.tenantId)
    : await mkdtemp(path.join(tmpdir(), `portal-seed-${data.tenantId}-`));
  try {
    await rm(folder, { recursive: true, force: true });
    await writeOrderSystemFixtures(data, folder, languages.locales);
    const { sources } = await sourcesAt(folder);
    const result = await withTenantLanguages(languages, () =>
      importSources(db, data.tenantId, sources, { transaction: tx }),
    );
    if (!result.ok)
      throw new Error(
        `the demo data of ${data.tenantId} does not import: ${result.problems
          .slice(0, 5)
          .map((p) => `${p.file}:${p.line} ${p.pointer} ${p.message}`)
          .join('; ')}`,
      );
  } finally {
    if (!fixturesDir) await rm(folder, { recursive: true, force: true });
  }
  for (const module of SEED_MODULES) await module.insert?.(tx, data);
}

/**
 * Seeds every tenant not seeded yet and returns the demo logins of all of them (printed at start,
 * docs/architecture.md "Data and the server"). Users get no password (magic-link login).
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
      const languages = {
        locales: tenant.locales ?? [tenant.defaultLocale],
        defaultLocale: tenant.defaultLocale,
      };
      await writeDataSet(db, tx, data, languages, opts.fixturesDir);
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
