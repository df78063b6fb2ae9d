/**
 * Migration 015: every committed change to the data GET /subscriptions answers from raises the
 * tenant's version, once per transaction, at commit; nothing else does. The subscription list's
 * memory (server/subscription/subscriptionListCache.ts) is only as right as this.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { seedDemoData } from '../../../server/seed';
import { createTestDatabase, uniqueTenantId } from '../../support/database';
import { makeServerTenant } from '../../support/builders';

const tenant = makeServerTenant({
  id: uniqueTenantId('versions'),
  name: 'Verlag Versionen',
  hosts: ['versions.test'],
  defaultLocale: 'de-DE',
});
const other = makeServerTenant({
  id: uniqueTenantId('versions-other'),
  name: 'Verlag Nebenan',
  hosts: ['versions-other.test'],
  defaultLocale: 'de-DE',
});
let db: Database;

const version = async (tenantId: string) =>
  Number(
    (
      await db.query<{ version: string }>(
        'select version from subscription_data_versions where tenant_id = $1',
        [tenantId],
      )
    )[0]?.version ?? 0,
  );

beforeAll(async () => {
  db = (await createTestDatabase()).db;
  await seedDemoData(db, [tenant, other]);
});

afterAll(async () => {
  await db?.close();
});

describe('the subscription data version (migration 015)', () => {
  it('rises once for a transaction that changes many rows of several tables', async () => {
    const start = await version(tenant.id);
    await db.transaction(async (tx) => {
      await tx.query(`update subscriptions set details = details where tenant_id = $1`, [tenant.id]);
      await tx.query(`update business_partners set city = city where tenant_id = $1`, [tenant.id]);
      await tx.query(`update issues set description = description where tenant_id = $1`, [tenant.id]);
    });
    expect(await version(tenant.id)).toBe(start + 1);
  });

  it('rises for each of the six tables the list reads, and for deletions', async () => {
    for (const table of [
      'subscriptions',
      'subscription_roles',
      'business_partners',
      'user_business_partners',
      'publications',
      'issues',
    ]) {
      const start = await version(tenant.id);
      await db.query(`update ${table} set tenant_id = tenant_id where tenant_id = $1`, [tenant.id]);
      expect(await version(tenant.id), table).toBe(start + 1);
    }
    const start = await version(tenant.id);
    await db.query(
      `delete from issues where tenant_id = $1 and issue = (select min(issue) from issues where tenant_id = $1)`,
      [tenant.id],
    );
    expect(await version(tenant.id)).toBe(start + 1);
  });

  it('stays as it was when the transaction is rolled back, or changes nothing of the list', async () => {
    const start = await version(tenant.id);
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`update subscriptions set details = details where tenant_id = $1`, [tenant.id]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.query(`update sessions set last_seen_at = now() where tenant_id = $1`, [tenant.id]);
    await db.query(
      `update subscriptions set details = details where tenant_id = $1 and id = 'no such subscription'`,
      [tenant.id],
    );
    expect(await version(tenant.id)).toBe(start);
  });

  it('raises both tenants when a row moves from one to the other', async () => {
    const [mine, theirs] = [await version(tenant.id), await version(other.id)];
    await db.query(
      `insert into business_partners (tenant_id, bp_number, last_name1) values ($1, '9999999901', 'Umzug')`,
      [tenant.id],
    );
    await db.query(
      `update business_partners set tenant_id = $2 where tenant_id = $1 and bp_number = '9999999901'`,
      [tenant.id, other.id],
    );
    expect(await version(tenant.id)).toBe(mine + 2);
    expect(await version(other.id)).toBe(theirs + 1);
  });

  it('raises only the tenants whose rows changed', async () => {
    const [mine, theirs] = [await version(tenant.id), await version(other.id)];
    await db.query(`update subscriptions set details = details where tenant_id = $1`, [other.id]);
    expect(await version(tenant.id)).toBe(mine);
    expect(await version(other.id)).toBe(theirs + 1);
  });
});
