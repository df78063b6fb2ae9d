/**
 * The import's fast paths (server/store/orderSystemStore.ts, mergeAsOrderSystem; docs/going-live.md
 * "3. Import") write what the merge of each record on its own writes: a first import (no stored
 * version, rows inserted without looking for them, references left to the foreign keys), batches
 * whose key range holds a few stored versions (a record's rows split over two batches) or many (a
 * re-import), a row the portal has without a stored version, a child a record lists twice, and a
 * record naming a row that does not exist. And a re-import under a subscriber's pending change ends where a first import of the
 * same records plus that change does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { runImport } from '../../../cli/commands/import';
import { orderSystemEntity } from '../../../server/operator/entities/orderSystemEntities';
import { readRecord } from '../../../server/operator/entities/orderSystemRecords';
import { mergeStaged, stageRecords } from '../../../server/store/orderSystemStore';
import { updatePartner } from '../../../server/store/accountChangeStore';
import { recordEvent } from '../../../server/events/recordEvent';
import { createUser } from '../../../server/store/userStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

let db: Database;
beforeAll(async () => {
  db = await getTestDatabase();
});

const ndjson = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

function folderWith(files: Record<string, unknown[]>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'portal-import-fast-'));
  for (const [name, records] of Object.entries(files))
    writeFileSync(path.join(folder, name), ndjson(records));
  return folder;
}

const partner = (i: number, version = 1, city = 'Hamburg') => ({
  version,
  bpNumber: `33${String(i).padStart(8, '0')}`,
  firstName: `Person ${i}`,
  lastName1: 'Schnell',
  city,
});
const publications = [{ version: 1, publication: 'FAST', clientId: '303', description: 'Die Schnelle' }];
const subscription = (i: number) => ({
  version: 1,
  id: `30300000${String(i).padStart(2, '0')}`,
  orderNumber: `50000010${String(i).padStart(2, '0')}`,
  publication: 'FAST',
  orderStatus: 'A',
  mixType: 'PRINT',
  roles: [
    { bpNumber: partner(i).bpNumber, role: 'AG' },
    { bpNumber: partner(i + 1).bpNumber, role: 'WE' },
  ],
});
const payments = (i: number) =>
  Array.from({ length: 12 }, (_, m) => ({
    version: 1,
    subscriptionId: subscription(i).id,
    id: `P${m + 1}`,
    date: `2025-${String(m + 1).padStart(2, '0')}-01`,
    amount: '9.90',
    currency: 'EUR',
    invoiceStatusCode: 'A',
    invoiceNumber: `R${i}-${m + 1}`,
  }));

const N = 12;
const records = {
  'publications.ndjson': publications,
  'business-partners.ndjson': Array.from({ length: N + 1 }, (_, i) => partner(i)),
  'subscriptions.ndjson': Array.from({ length: N }, (_, i) => subscription(i)),
  'payments.ndjson': Array.from({ length: N }, (_, i) => payments(i)).flat(),
};

/** Every row the records wrote in a tenant, without the tenant and the time of writing. */
async function rowsOf(tenantId: string) {
  const dump = (table: string, order: string, without = 'tenant_id') =>
    db.query(
      `select to_jsonb(t) - '${without}' - 'tenant_id' as row from ${table} t where tenant_id = $1 order by ${order}`,
      [tenantId],
    );
  return {
    publications: await dump('publications', 'publication'),
    partners: await dump('business_partners', 'bp_number'),
    subscriptions: await dump('subscriptions', 'id'),
    roles: await dump('subscription_roles', 'subscription_id, role'),
    payments: await dump('payment_history', 'subscription_id, id'),
    versions: await dump('order_system_versions', 'entity, record_key', 'updated_at'),
  };
}

/** The records merged one by one, as the API's upserts merge them. */
async function mergeOneByOne(tenantId: string, files: Record<string, unknown[]>) {
  for (const [file, list] of Object.entries(files)) {
    const entity = orderSystemEntity(file.replace('.ndjson', ''))!;
    for (const record of list) {
      const read = readRecord(entity, structuredClone(record));
      if (!read.ok) throw new Error(JSON.stringify(read.problems));
      await db.transaction(async (tx) => {
        await stageRecords(tx, [read.staged]);
        await mergeStaged(tx, tenantId, entity);
      });
    }
  }
}

const countsOf = (result: Awaited<ReturnType<typeof runImport>>['result']) =>
  result.entities.map((e) => [e.entity, e.created, e.updated, e.unchanged, e.refused]);

describe('the import’s fast paths', () => {
  it('a first import, in batches splitting a subscription’s payments, writes what the upserts write', async () => {
    const imported = uniqueTenantId('fast-import');
    const upserted = uniqueTenantId('fast-upsert');
    // 7 lines a batch: every batch of payments but the first has keys stored by the one before in its range.
    const { result } = await runImport(db, imported, folderWith(records), { batchLines: 7 });
    expect(countsOf(result)).toEqual([
      ['publications', 1, 0, 0, 0],
      ['business-partners', N + 1, 0, 0, 0],
      ['subscriptions', N, 0, 0, 0],
      ['payments', N * 12, 0, 0, 0],
    ]);
    await mergeOneByOne(upserted, records);
    expect(await rowsOf(imported)).toEqual(await rowsOf(upserted));

    // The same files again, in batches of any size: nothing changes.
    for (const batchLines of [5, 1000]) {
      const again = await runImport(db, imported, folderWith(records), { batchLines });
      expect(countsOf(again.result)).toEqual([
        ['publications', 0, 0, 1, 0],
        ['business-partners', 0, 0, N + 1, 0],
        ['subscriptions', 0, 0, N, 0],
        ['payments', 0, 0, N * 12, 0],
      ]);
    }
    expect(await rowsOf(imported)).toEqual(await rowsOf(upserted));
  });

  it('updates a row the portal has without a stored version, as the upsert does', async () => {
    const tenants = [uniqueTenantId('fast-row-import'), uniqueTenantId('fast-row-upsert')];
    for (const tenantId of tenants)
      await db.query(
        `insert into business_partners (tenant_id, bp_number, last_name1, city) values ($1, $2, 'Alt', 'Bremen')`,
        [tenantId, partner(1).bpNumber],
      );
    const files = { 'business-partners.ndjson': [partner(0), partner(1), partner(2)] };
    const { result } = await runImport(db, tenants[0], folderWith(files));
    expect(countsOf(result)).toEqual([['business-partners', 2, 1, 0, 0]]);
    await mergeOneByOne(tenants[1], files);
    expect(await rowsOf(tenants[0])).toEqual(await rowsOf(tenants[1]));
  });

  it('refuses a role a new subscription lists twice, as the upsert does', async () => {
    const tenantId = uniqueTenantId('fast-twice-import');
    const twice = { ...subscription(0), roles: [...subscription(0).roles, subscription(0).roles[0]] };
    const files = {
      'publications.ndjson': publications,
      'business-partners.ndjson': [partner(0), partner(1), partner(2)],
      'subscriptions.ndjson': [twice, subscription(1)],
    };
    const { result, text } = await runImport(db, tenantId, folderWith(files));
    const { bpNumber, role } = subscription(0).roles[0];
    const at = subscription(0).roles.length;
    const message = `names ${bpNumber} as ${role} again (as /roles/0 does): each partner once per role`;
    expect(result.ok).toBe(false);
    expect(text.split('\n')[0]).toBe(`subscriptions.ndjson:1 /roles/${at} ${message}`);
    await expect(mergeOneByOne(uniqueTenantId('fast-twice-upsert'), files)).rejects.toThrow(
      JSON.stringify([{ pointer: `/roles/${at}`, message }]),
    );
    expect((await rowsOf(tenantId)).roles).toHaveLength(0);
  });

  it('lists a record naming a row that does not exist as before, and writes nothing', async () => {
    const tenantId = uniqueTenantId('fast-refs');
    const missing = { ...payments(0)[0], subscriptionId: '3039999999' };
    const { result, text } = await runImport(
      db,
      tenantId,
      folderWith({ ...records, 'payments.ndjson': [...payments(0), missing, ...payments(1)] }),
      { batchLines: 5 },
    );
    expect(result.ok).toBe(false);
    expect(text.split('\n')).toEqual([
      'payments.ndjson:13 /subscriptionId names subscriptions "3039999999", which does not exist (import or write it first)',
      '',
      'Nothing was written.',
    ]);
    const [row] = await db.query<{ n: number }>(
      `select count(*)::int as n from order_system_versions where tenant_id = $1`,
      [tenantId],
    );
    expect(row.n).toBe(0);
  });

  it('judges a batch whose key range holds many stored versions record by record, as one with a few', async () => {
    const many = Array.from({ length: 1100 }, (_, i) => partner(1000 + i));
    const next = [...many.slice(0, 1099), partner(1000 + 1099, 2, 'Kiel'), partner(5000)];
    const results: unknown[] = [];
    const rows: unknown[] = [];
    // One batch of 1,101 lines (1,100 stored versions in its range), and batches of 50 (50 at most,
    // below SPARSE_VERSIONS of orderSystemStore.ts).
    for (const batchLines of [2000, 50]) {
      const tenantId = uniqueTenantId('fast-many');
      await runImport(db, tenantId, folderWith({ 'business-partners.ndjson': many }));
      const { result } = await runImport(db, tenantId, folderWith({ 'business-partners.ndjson': next }), {
        batchLines,
      });
      results.push(countsOf(result));
      rows.push(await rowsOf(tenantId));
    }
    expect(results).toEqual([[['business-partners', 1, 1, 1099, 0]], [['business-partners', 1, 1, 1099, 0]]]);
    expect(rows[0]).toEqual(rows[1]);
  });

  it('a re-import under a pending change ends where a first import plus that change does', async () => {
    const first = uniqueTenantId('fast-first');
    const again = uniqueTenantId('fast-again');
    const older = {
      ...records,
      'business-partners.ndjson': records['business-partners.ndjson'].map((p, i) =>
        i === 3 ? { ...p, version: 0, city: 'Lübeck' } : p,
      ),
    };
    const change = async (tenantId: string) => {
      const user = await createUser(db, tenantId, { email: `fast@${tenantId}.example` });
      await db.transaction(async (tx) => {
        await updatePartner(tx, tenantId, partner(3).bpNumber, { city: 'Rostock' });
        await recordEvent(tx, tenantId, 'address.changed', {
          userId: user.id,
          bpNumber: partner(3).bpNumber,
          subscriptionId: 'none',
          validFrom: null,
          fields: ['city'],
        });
      });
    };
    // A first import (every batch new), then the subscriber's change.
    await runImport(db, first, folderWith(records), { batchLines: 4 });
    await change(first);
    // An older version first, the change, then the records again: the partner's newer version is
    // written and the pending change goes back on top; everything else is unchanged.
    await runImport(db, again, folderWith(older), { batchLines: 4 });
    await change(again);
    const { result } = await runImport(db, again, folderWith(records), { batchLines: 4 });
    expect(countsOf(result)).toEqual([
      ['publications', 0, 0, 1, 0],
      ['business-partners', 0, 1, N, 0],
      ['subscriptions', 0, 0, N, 0],
      ['payments', 0, 0, N * 12, 0],
    ]);
    const shown = await rowsOf(again);
    expect(shown).toEqual(await rowsOf(first));
    expect(shown.partners[3]).toMatchObject({ row: { city: 'Rostock' } });
  });
});
