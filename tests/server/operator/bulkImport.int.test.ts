/**
 * `portal import` (docs/going-live.md "Going live with your order system", 3. Import): every bad line
 * reported as `file:line /pointer message` with nothing written, a missing reference refusing the whole
 * import, an interrupted import that leaves nothing behind and is run again, and a second identical
 * import that changes nothing. tests/server/operator/importRefusals.int.test.ts has the other
 * refusals.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { formatProgress, runImport } from '../../../cli/commands/import';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

let db: Database;
beforeAll(async () => {
  db = await getTestDatabase();
});

const ndjson = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

function folderWith(files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'portal-import-test-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder, name), text);
  return folder;
}

const partners = Array.from({ length: 5 }, (_, i) => ({
  version: 1,
  bpNumber: `20000000${String(i).padStart(2, '0')}`,
  firstName: `Person ${i}`,
  lastName1: 'Muster',
}));
const publications = [{ version: 1, publication: 'ZEIT', clientId: '202', description: 'Die Woche' }];
const subscriptions = partners.map((p, i) => ({
  version: 1,
  id: `20200000${i}`,
  orderNumber: `40000010${String(i).padStart(2, '0')}`,
  publication: 'ZEIT',
  orderStatus: 'A',
  mixType: 'PRINT',
  roles: [{ bpNumber: p.bpNumber, role: 'AG' }],
}));
const goodFiles = () => ({
  'publications.ndjson': ndjson(publications),
  'business-partners.ndjson': ndjson(partners),
  'subscriptions.ndjson': ndjson(subscriptions),
});

async function count(table: string, tenantId: string) {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from ${table} where tenant_id = $1`,
    [tenantId],
  );
  return row.n;
}

describe('portal import', () => {
  it('lists every bad line of every file as file:line /pointer message and writes nothing', async () => {
    const tenantId = uniqueTenantId('import-bad');
    const folder = folderWith({
      ...goodFiles(),
      'business-partners.ndjson':
        ndjson(partners.slice(0, 2)) +
        '{"version": 1, "bpNumber": \n' +
        ndjson([{ version: 1, bpNumber: '12' }]),
      'subscriptions.ndjson': ndjson([{ ...subscriptions[0], orderStatus: 'Z', mixType: undefined }]),
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    expect(text.split('\n')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^business-partners\.ndjson:3 is not JSON: /),
        'business-partners.ndjson:4 /bpNumber must be 10 digits',
        'subscriptions.ndjson:1 /mixType is required',
        expect.stringMatching(/^subscriptions\.ndjson:1 \/orderStatus must be one of "A", "AK"/),
        'Nothing was written.',
      ]),
    );
    expect(await count('publications', tenantId)).toBe(0);
    expect(await count('business_partners', tenantId)).toBe(0);
  });

  it('refuses a file that is not named after an entity', async () => {
    const folder = folderWith({ 'subscription.ndjson': ndjson(subscriptions) });
    const { text } = await runImport(db, uniqueTenantId('import-name'), folder);
    expect(text).toMatch(/^subscription\.ndjson is not an entity file: name files <entity>\.ndjson, one of /);
  });

  it('refuses an empty folder: a wrong path or an export that did not run, not "nothing to change"', async () => {
    const folder = folderWith({});
    const { result, text } = await runImport(db, uniqueTenantId('import-empty'), folder);
    expect(result.ok).toBe(false);
    expect(text).toContain('holds no files to import: put the order system');
  });

  it('imports a folder in load order, then an identical import changes nothing', async () => {
    const tenantId = uniqueTenantId('import-twice');
    const folder = folderWith(goodFiles());
    const first = await runImport(db, tenantId, folder);
    expect(first.result.ok).toBe(true);
    expect(first.result.entities.map((e) => [e.entity, e.created])).toEqual([
      ['publications', 1],
      ['business-partners', 5],
      ['subscriptions', 5],
    ]);
    expect(first.text).toMatch(/^file\s+lines\s+created\s+updated\s+unchanged\s+refused\s+deleted$/m);
    expect(await count('subscription_roles', tenantId)).toBe(5);
    const before = await db.query(
      `select xmin::text, * from subscriptions where tenant_id = $1 order by id`,
      [tenantId],
    );
    const versionsBefore = await db.query(
      `select xmin::text, * from order_system_versions where tenant_id = $1 order by entity, record_key`,
      [tenantId],
    );

    const second = await runImport(db, tenantId, folder);
    expect(
      second.result.entities.map((e) => [e.entity, e.created, e.updated, e.unchanged, e.refused]),
    ).toEqual([
      ['publications', 0, 0, 1, 0],
      ['business-partners', 0, 0, 5, 0],
      ['subscriptions', 0, 0, 5, 0],
    ]);
    // Not one row rewritten: the same transaction ids on every row.
    expect(
      await db.query(`select xmin::text, * from subscriptions where tenant_id = $1 order by id`, [tenantId]),
    ).toEqual(before);
    expect(
      await db.query(
        `select xmin::text, * from order_system_versions where tenant_id = $1 order by entity, record_key`,
        [tenantId],
      ),
    ).toEqual(versionsBefore);
  });

  it('lists the records it refused as older than the stored version, by file, line and key', async () => {
    const tenantId = uniqueTenantId('import-stale');
    const newer = partners.map((p) => ({ ...p, version: 5 }));
    expect(
      (await runImport(db, tenantId, folderWith({ 'business-partners.ndjson': ndjson(newer) }))).result.ok,
    ).toBe(true);
    const stale = [
      newer[0],
      { ...partners[1], version: 3, firstName: 'Older' },
      { ...partners[2], version: 5, firstName: 'Same version, other content' },
    ];
    const { result, text } = await runImport(
      db,
      tenantId,
      folderWith({ 'business-partners.ndjson': ndjson(stale) }),
    );
    expect(result.ok).toBe(true);
    expect(result.entities.map((e) => [e.unchanged, e.refused])).toEqual([[1, 2]]);
    expect(text.split('\n').slice(-2)).toEqual([
      'refused: business-partners.ndjson:2 key "2000000001" version 3 is older than the stored 5',
      'refused: business-partners.ndjson:3 key "2000000002" version 5 is the stored version with other content',
    ]);
    const [row] = await db.query<{ first_name: string }>(
      `select first_name from business_partners where tenant_id = $1 and bp_number = $2`,
      [tenantId, partners[1].bpNumber],
    );
    expect(row.first_name).toBe('Person 1');
  });

  it('refuses the whole import when records name rows that do not exist, with the line and pointer', async () => {
    const tenantId = uniqueTenantId('import-refs');
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'subscriptions.ndjson': ndjson(subscriptions.slice(0, 2)),
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    expect(text).toContain(
      'subscriptions.ndjson:1 /roles/0/bpNumber names business-partners "2000000000", which does not exist',
    );
    expect(text).toContain('subscriptions.ndjson:2 /roles/0/bpNumber');
    expect(text).toMatch(/\n\nNothing was written\.$/);
    expect(await count('subscriptions', tenantId)).toBe(0);
    // The file before it, good as it is, is not written either: the files go in whole or not at all.
    expect(await count('publications', tenantId)).toBe(0);
  });

  it('leaves nothing of an interrupted import: run again, it writes everything', async () => {
    const tenantId = uniqueTenantId('import-resume');
    const folder = folderWith(goodFiles());
    let batches = 0;
    const interrupted = runImport(db, tenantId, folder, {
      batchLines: 2,
      onProgress: (progress) => {
        if (progress.phase === 'loading' && progress.file === 'subscriptions.ndjson' && ++batches === 2)
          throw new Error('power cut');
      },
    });
    await expect(interrupted).rejects.toThrow('power cut');
    expect(await count('subscriptions', tenantId)).toBe(0);
    expect(await count('business_partners', tenantId)).toBe(0);

    const again = await runImport(db, tenantId, folder, { batchLines: 2 });
    expect(again.result.ok).toBe(true);
    expect(again.result.entities.find((e) => e.entity === 'subscriptions')).toMatchObject({
      created: 5,
      updated: 0,
    });
    expect(await count('subscriptions', tenantId)).toBe(5);
    const once = await runImport(db, tenantId, folder, { batchLines: 2 });
    expect(once.result.entities.find((e) => e.entity === 'subscriptions')).toMatchObject({
      created: 0,
      unchanged: 5,
    });
  });

  it('prints progress with the rate', () => {
    const line = formatProgress(
      {
        entity: 'subscriptions',
        file: 'subscriptions.ndjson',
        phase: 'loading',
        linesDone: 50_000,
        linesTotal: 1_000_000,
        startedAt: 0,
      },
      10_000,
    );
    expect(line).toBe('loading  subscriptions.ndjson: 50,000 of 1,000,000 lines, 5,000 lines/s');
  });
});

describe('the demo seed', () => {
  it('writes its order-system data as NDJSON fixtures that import like any publisher’s', async () => {
    const { seedDemoData } = await import('../../../server/seed');
    const fixturesDir = mkdtempSync(path.join(tmpdir(), 'portal-seed-fixtures-'));
    mkdirSync(fixturesDir, { recursive: true });
    const tenantId = uniqueTenantId('seed-import');
    await seedDemoData(db, [{ id: tenantId, defaultLocale: 'en-GB' }], {
      fixturesDir,
      today: new Date(Date.UTC(2026, 2, 15)),
    });
    const again = await runImport(db, tenantId, path.join(fixturesDir, tenantId));
    expect(again.result.ok).toBe(true);
    for (const entity of again.result.entities) {
      expect(entity.lines, entity.file).toBeGreaterThan(0);
      expect([entity.entity, entity.created, entity.updated, entity.refused]).toEqual([
        entity.entity,
        0,
        0,
        0,
      ]);
    }
    expect(again.result.entities.map((e) => e.entity)).toEqual(
      expect.arrayContaining(['publications', 'business-partners', 'subscriptions', 'payments', 'offers']),
    );
  });
});
