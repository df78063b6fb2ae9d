/**
 * `portal import` refuses a file set whole (README "Going live with your order system", 3. Import):
 * for each kind of bad input nothing is written and every problem is named by `file:line`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { runImport } from '../../../cli/commands/import';
import { readLines } from '../../../server/operator/import/importRecords';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

let db: Database;
beforeAll(async () => {
  db = await getTestDatabase();
});

const ndjson = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

function folderWith(files: Record<string, string | Buffer>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'portal-import-test-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(folder, name), content);
  return folder;
}

const partner = (i: number) => ({
  version: 1,
  bpNumber: `30000${String(i).padStart(5, '0')}`,
  firstName: `Person ${i}`,
  lastName1: 'Muster',
});
const publications = [{ version: 1, publication: 'TAZ', clientId: '101', description: 'Die Tageszeitung' }];

const TABLES = [
  'publications',
  'business_partners',
  'subscriptions',
  'subscription_roles',
  'order_system_versions',
];

/** Rows of the tenant in every table an import writes. */
async function rowsOf(tenantId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await db.query<{ n: number }>(
      `select count(*)::int as n from ${table} where tenant_id = $1`,
      [tenantId],
    );
    counts[table] = row.n;
  }
  return counts;
}

const nothing = Object.fromEntries(TABLES.map((table) => [table, 0]));

describe('portal import refuses', () => {
  it('a line that is not valid UTF-8, naming its file and line', async () => {
    const tenantId = uniqueTenantId('import-utf8');
    const good = (i: number) => Buffer.from(JSON.stringify(partner(i)) + '\n');
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'business-partners.ndjson': Buffer.concat([
        good(0),
        // "M\xfcller" in Latin-1: a byte that starts no UTF-8 sequence.
        Buffer.from('{"version": 1, "bpNumber": "3000000001", "firstName": "M'),
        Buffer.from([0xfc]),
        Buffer.from('ller", "lastName1": "X"}\n'),
        good(2),
        // A sequence cut short at the end of the line.
        Buffer.from('{"version": 1, "bpNumber": "3000000003", "firstName": "'),
        Buffer.from([0xe2, 0x82]),
        Buffer.from('"}'),
      ]),
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    expect(text.split('\n')).toEqual([
      'business-partners.ndjson:2 is not valid UTF-8',
      'business-partners.ndjson:4 is not valid UTF-8',
      '',
      'Nothing was written.',
    ]);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });

  it('a line longer than 1 MB, without keeping it, and a shorter limit when asked for', async () => {
    const tenantId = uniqueTenantId('import-long');
    const huge = JSON.stringify({ ...partner(1), firstName: 'x'.repeat(10 * 1024 ** 2) });
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'business-partners.ndjson': `${JSON.stringify(partner(0))}\n${huge}\r\n${JSON.stringify(partner(2))}`,
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      {
        file: 'business-partners.ndjson',
        line: 2,
        pointer: '',
        message: `is longer than 1 MB (${Buffer.byteLength(huge).toLocaleString('en-GB')} bytes)`,
      },
    ]);
    expect(text).toContain('business-partners.ndjson:2 is longer than 1 MB (10,485,');
    expect(await rowsOf(tenantId)).toEqual(nothing);

    const limit = Buffer.byteLength(JSON.stringify(partner(0)));
    const short = await runImport(
      db,
      tenantId,
      folderWith({
        'business-partners.ndjson': ndjson([partner(0), { ...partner(1), firstName: 'Person 1abc' }]),
      }),
      { maxLineBytes: limit },
    );
    expect(short.result.problems.map((p) => [p.line, p.message])).toEqual([
      [2, `is longer than ${limit} bytes (${limit + 3} bytes)`],
    ]);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });

  it('the same key twice, naming both lines, even when the later line is an older version', async () => {
    const tenantId = uniqueTenantId('import-twice');
    const payment = (id: string) => ({
      version: 1,
      subscriptionId: 'F31',
      id,
      date: '2026-01-01',
      amount: 9.5,
      invoiceStatusCode: 'A',
    });
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'business-partners.ndjson': ndjson([
        { ...partner(0), version: 2 },
        partner(1),
        { ...partner(0), version: 1, firstName: 'Older' },
        partner(2),
        partner(1),
      ]),
      'payments.ndjson': ndjson([payment('P1'), payment('P2'), payment('P1')]),
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    expect(text.split('\n')).toEqual([
      'business-partners.ndjson:3 /bpNumber "3000000000" appears again: line 1 has the same key',
      'business-partners.ndjson:5 /bpNumber "3000000001" appears again: line 2 has the same key',
      'payments.ndjson:3 /id "P1" of subscriptionId "F31" appears again: line 1 has the same key',
      '',
      'Nothing was written.',
    ]);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });
});

describe('readLines', () => {
  it('decodes lines whose characters straddle the chunks it reads, CRLF or not, the last without a newline', async () => {
    // 'ü' is two bytes: at an odd offset one of them ends up on each side of the 256 KiB chunk border.
    const long = `a${'ü'.repeat(200_000)}`;
    const file = path.join(folderWith({ 'x.ndjson': `${long}\r\n\nzwei\r\ndrei` }), 'x.ndjson');
    const lines = [];
    for await (const line of readLines(file)) lines.push(line);
    expect(lines).toEqual([{ text: long }, { text: '' }, { text: 'zwei' }, { text: 'drei' }]);
  });
});
