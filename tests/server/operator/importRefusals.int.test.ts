/**
 * `portal import` refuses a file set whole (docs/going-live.md "Going live with your order system",
 * 3. Import): for each kind of bad input nothing is written and every problem is named by `file:line`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { runImport } from '../../../cli/commands/import';
import { readLines } from '../../../server/operator/import/importRecords';
import { createTestDatabase, getTestDatabase, uniqueTenantId } from '../../support/database';

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
const partners = Array.from({ length: 5 }, (_, i) => partner(i));
const publications = [{ version: 1, publication: 'TAZ', clientId: '101', description: 'Die Tageszeitung' }];

const subscription = (i: number, bpNumber = partner(i).bpNumber) => ({
  version: 1,
  id: `30300000${i}`,
  orderNumber: `40000030${String(i).padStart(2, '0')}`,
  publication: 'TAZ',
  orderStatus: 'A',
  mixType: 'PRINT',
  roles: [{ bpNumber, role: 'AG' }],
});
const payment = (subscriptionId: string, id: string) => ({
  version: 1,
  subscriptionId,
  id,
  date: '2026-01-01',
  amount: 9.5,
  invoiceStatusCode: 'A',
});

const TABLES = [
  'publications',
  'business_partners',
  'subscriptions',
  'subscription_roles',
  'payment_history',
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
      // The same problem on two lines: said once, naming both.
      'business-partners.ndjson:2 is not valid UTF-8: the files are read as UTF-8 (export or save them so; UTF-16 and Latin-1 are not) (the same on line 4)',
      '',
      'Nothing was written.',
    ]);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });

  it('a line that names a key twice in one object, rather than keeping the last', async () => {
    const tenantId = uniqueTenantId('import-duplicate-key');
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'business-partners.ndjson': `${JSON.stringify(partner(0))}\n${JSON.stringify(partner(1)).replace(
        /^\{/,
        '{"bpNumber": "3000000099", ',
      )}\n`,
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    expect(text.split('\n')).toEqual([
      'business-partners.ndjson:2 names the key "bpNumber" twice in one object',
      '',
      'Nothing was written.',
    ]);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });

  it('a byte order mark before the first line is no part of the record', async () => {
    const tenantId = uniqueTenantId('import-bom');
    const folder = folderWith({
      'publications.ndjson': `\uFEFF${ndjson(publications)}`,
      'business-partners.ndjson': `\uFEFF${ndjson([partner(0)])}`,
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok, text).toBe(true);
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
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'business-partners.ndjson': ndjson([
        { ...partner(0), version: 2 },
        partner(1),
        { ...partner(0), version: 1, firstName: 'Older' },
        partner(2),
        partner(1),
      ]),
      'payments.ndjson': ndjson([payment('F31', 'P1'), payment('F31', 'P2'), payment('F31', 'P1')]),
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

  it('the same key twice when the first line has problems of its own, in the same run', async () => {
    const tenantId = uniqueTenantId('import-twice-bad');
    const folder = folderWith({
      'business-partners.ndjson': ndjson([
        { ...partner(0), firstName: 7 },
        partner(1),
        partner(0),
        { ...partner(2), bpNumber: '' },
        { ...partner(2), bpNumber: '' },
      ]),
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    const lines = text.split('\n');
    expect(lines.filter((line) => line.startsWith('business-partners.ndjson:1 '))).toHaveLength(1);
    expect(lines).toContain(
      'business-partners.ndjson:3 /bpNumber "3000000000" appears again: line 1 has the same key',
    );
    // A key that is not there (or not a key) names no record: no line is its repeat.
    expect(lines.filter((line) => line.includes('appears again'))).toHaveLength(1);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });

  it('records naming rows that do not exist in any batch of any file, listing all of them', async () => {
    const tenantId = uniqueTenantId('import-refs');
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'business-partners.ndjson': ndjson(partners),
      'subscriptions.ndjson': ndjson([
        subscription(0),
        subscription(1),
        subscription(2, '3000000099'), // the second batch
        subscription(3),
        { ...subscription(4), publication: 'NOPE' }, // the third
        subscription(5, '3000000098'),
        subscription(6, partner(4).bpNumber),
      ]),
      'payments.ndjson': ndjson([payment(subscription(0).id, 'P1'), payment('303999999', 'P1')]),
    });
    const { result, text } = await runImport(db, tenantId, folder, { batchLines: 2 });
    expect(result.ok).toBe(false);
    const missing = (what: string) => `${what}, which does not exist (import or write it first)`;
    expect(text.split('\n')).toEqual([
      `subscriptions.ndjson:3 /roles/0/bpNumber names ${missing('business-partners "3000000099"')}`,
      `subscriptions.ndjson:5 /publication names ${missing('publications "NOPE"')}`,
      `subscriptions.ndjson:6 /roles/0/bpNumber names ${missing('business-partners "3000000098"')}`,
      `payments.ndjson:2 /subscriptionId names ${missing('subscriptions "303999999"')}`,
      '',
      'Nothing was written.',
    ]);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });

  it('stops looking at maxProblems and says there may be more', async () => {
    const tenantId = uniqueTenantId('import-many');
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'subscriptions.ndjson': ndjson(Array.from({ length: 9 }, (_, i) => subscription(i))),
    });
    const { result, text } = await runImport(db, tenantId, folder, { batchLines: 2, maxProblems: 3 });
    expect(result).toMatchObject({ ok: false, stoppedEarly: true });
    expect(result.problems.map((p) => p.line)).toEqual([1, 2, 3]);
    expect(text).toContain('… the import stopped looking after 3 problems; there may be more');
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });

  it('records the database refuses, by file and line in its own words, finding each in its batch', async () => {
    const tenantId = uniqueTenantId('import-db');
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'business-partners.ndjson': ndjson(partners),
      'subscriptions.ndjson': ndjson([
        subscription(0),
        subscription(1),
        // The order number of line 1 again, under the same client: only the table can tell.
        { ...subscription(2), orderNumber: subscription(0).orderNumber },
        subscription(3),
      ]),
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    expect(text.split('\n')).toEqual([
      "subscriptions.ndjson:3 /clientId has the same clientId and orderNumber as another record of this tenant: together they name one record only (change it, or send the other record's id)",
      '',
      'Nothing was written.',
    ]);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });

  it('a value the table would refuse is refused by the record schema first, by its line', async () => {
    const tenantId = uniqueTenantId('import-check');
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'business-partners.ndjson': ndjson(partners),
      // The table wants an id longer than 3 (its client is the first 3): the schema says so too.
      'subscriptions.ndjson': ndjson([subscription(0), { ...subscription(1), id: 'F31' }]),
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    expect(text).toMatch(/^subscriptions\.ndjson:2 \/id /);
    expect(text).not.toMatch(/subscriptions_id_check/);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });

  it('a character the database cannot store, by its line, never in the database’s words', async () => {
    const tenantId = uniqueTenantId('import-nul');
    const folder = folderWith({
      'business-partners.ndjson': ndjson([partner(0), { ...partner(1), firstName: 'a\u0000b' }, partner(2)]),
    });
    const { result, text } = await runImport(db, tenantId, folder);
    expect(result.ok).toBe(false);
    // Pass 1 may name it once the record schemas refuse NUL; until then the database does.
    expect(text).toMatch(/^business-partners\.ndjson:2 (\/firstName )?\S/);
    expect(text).not.toMatch(/unsupported Unicode|COPY|\\u0000/);
    expect(await rowsOf(tenantId)).toEqual(nothing);
  });
});

describe('import progress', () => {
  it('a progress row of an interrupted import of the old kind neither blocks nor shortens a later run, and its table goes', async () => {
    const tenantId = uniqueTenantId('import-progress');
    // The table as migration 019 made it, with a row saying the file got to line 4.
    await db.query(`create table if not exists import_progress (
      tenant_id text not null, entity text not null, file_sha256 text not null, lines_done integer not null,
      updated_at timestamptz not null default now(), primary key (tenant_id, entity, file_sha256))`);
    const text = ndjson(partners);
    const { createHash } = await import('node:crypto');
    await db.query(`insert into import_progress values ($1, 'business-partners', $2, 4, now())`, [
      tenantId,
      createHash('sha256').update(text).digest('hex'),
    ]);
    const { result } = await runImport(db, tenantId, folderWith({ 'business-partners.ndjson': text }), {
      batchLines: 2,
    });
    expect(result.entities).toMatchObject([{ entity: 'business-partners', created: 5 }]);

    await db.query(
      readFileSync(
        new URL('../../../server/db/migrations/024_drop_import_progress.sql', import.meta.url),
        'utf8',
      ),
    );
    expect(await db.query(`select to_regclass('import_progress') as t`)).toEqual([{ t: null }]);
  });
});

describe('the spool', () => {
  const spoolsOf = (pid: number) =>
    readdirSync(tmpdir()).filter((name) => name.startsWith(`portal-import-spool-${pid}-`));

  it('goes when the import ends, refused or not', async () => {
    const tenantId = uniqueTenantId('import-spool');
    await runImport(db, tenantId, folderWith({ 'business-partners.ndjson': ndjson(partners) }));
    await runImport(db, tenantId, folderWith({ 'subscriptions.ndjson': ndjson([subscription(0)]) }));
    expect(spoolsOf(process.pid)).toEqual([]);
  });

  it('of a process that is gone is removed by the next import; one of a running process stays', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const leftover = (pid: number, name: string) => {
      const folder = path.join(
        tmpdir(),
        `portal-import-${name}-${pid}-test${Math.random().toString(36).slice(2, 8)}`,
      );
      mkdirSync(folder);
      writeFileSync(path.join(folder, '0.copy'), 'x'.repeat(1000));
      return folder;
    };
    const killed = leftover(gone, 'spool');
    const upload = leftover(gone, 'upload');
    // This pid's, but from before this process started: an earlier process with the same pid.
    const earlier = leftover(process.pid, 'spool');
    utimesSync(earlier, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const running = leftover(process.ppid, 'spool');
    try {
      await runImport(
        db,
        uniqueTenantId('import-stale'),
        folderWith({ 'publications.ndjson': ndjson(publications) }),
      );
      expect([killed, upload, earlier].filter((folder) => existsSync(folder))).toEqual([]);
      expect(existsSync(running)).toBe(true);
    } finally {
      rmSync(running, { recursive: true, force: true });
    }
  });
});

describe('portal import, stopped by SIGTERM', () => {
  it('rolls back, removes its spool and exits 143', async () => {
    const { db: own, url } = await createTestDatabase({ poolSize: 1 });
    const temp = mkdtempSync(path.join(tmpdir(), 'portal-import-tmp-'));
    const lines = Array.from({ length: 200_000 }, (_, i) =>
      JSON.stringify({ ...partner(0), bpNumber: `31${String(i).padStart(8, '0')}` }),
    );
    const folder = folderWith({ 'business-partners.ndjson': lines.join('\n') });
    const cli = spawn(process.execPath, ['cli/bin.mjs', 'import', 'technikwelt', folder], {
      env: { ...process.env, DATABASE_URL: url, TMPDIR: temp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    cli.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = once(cli, 'exit') as Promise<[number | null, string | null]>;
    try {
      // Its spool is there: pass 1 runs.
      for (
        let tries = 0;
        !readdirSync(temp).some((name) => name.startsWith('portal-import-spool-'));
        tries += 1
      ) {
        if (tries > 1_500 || cli.exitCode !== null) throw new Error(`no spool appeared: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      cli.kill('SIGTERM');
      const [code] = await exited;
      expect(stderr).toContain('Stopped by SIGTERM: nothing was written. Run the same import again.');
      expect(code).toBe(143);
      // tsx keeps its cache there too.
      expect(readdirSync(temp).filter((name) => name.startsWith('portal-import-'))).toEqual([]);
      const [row] = await own.query<{ n: number }>(
        `select count(*)::int as n from business_partners where tenant_id = 'technikwelt'`,
      );
      expect(row.n).toBe(0);
    } finally {
      cli.kill('SIGKILL');
      await own.close();
      rmSync(temp, { recursive: true, force: true });
    }
  });
});

describe("portal import with the tenant's languages", () => {
  it('refuses a text by locale that misses one of them or names another, as the upserts do', async () => {
    const tenantId = uniqueTenantId('import-locales');
    const reason = (code: string, descriptions: Record<string, string>) => ({
      version: 1,
      publication: 'TAZ',
      code,
      descriptions,
    });
    const folder = folderWith({
      'publications.ndjson': ndjson(publications),
      'cancellation-reasons.ndjson': ndjson([
        reason('ZEIT', { 'de-DE': 'Keine Zeit' }),
        reason('PREIS', { 'de-DE': 'Zu teuer', 'en-GB': 'Too expensive', 'fr-FR': 'Trop cher' }),
        reason('UMZUG', { 'de-DE': 'Umzug', 'en-GB': 'Moving house' }),
      ]),
    });
    const languages = { locales: ['de-DE', 'en-GB'], defaultLocale: 'de-DE' };
    const { result, text } = await runImport(db, tenantId, folder, { languages });
    expect(result.ok).toBe(false);
    expect(text.split('\n')).toEqual([
      'cancellation-reasons.ndjson:1 /descriptions/en-GB is required: one text per locale of the tenant (de-DE, en-GB)',
      'cancellation-reasons.ndjson:2 /descriptions/fr-FR is not a locale of this tenant (de-DE, en-GB)',
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
