/**
 * The personal-data catalogue (docs/subscribers.md "Download my data": "The personal-data catalogue") against
 * the migrated database and against what the portal really does:
 *
 *  - PostgreSQL's catalogue: every table naming an account or a business partner, and every column
 *    whose name looks like personal data, is declared by a slice's manifest with its export, erase
 *    and expire handling (or declared not personal, with a reason); a table made here and declared
 *    nowhere is named by the check;
 *  - export: for an account with rows in a table, the named file of its ZIP carries them;
 *  - erase: after account deletion the rows declared deleted are gone and the columns declared
 *    anonymised no longer hold what they held;
 *  - expire: the clean-up a manifest names deletes from the table.
 */
import type { Readable } from 'node:stream';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../../server/db/database';
import { zipOfAccount } from '../../../server/data-export/dataExportService';
import { PERSONAL_DATA_CATALOGUE, personalDataTables } from '../../../server/privacy/catalogue';
import {
  auditCatalogue,
  catalogueColumns,
  describeFinding,
  linksAPerson,
} from '../../../server/privacy/catalogueAudit';
import { seedDemoData } from '../../../server/seed';
import { deleteAccountData } from '../../../server/store/accountDeletionStore';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { makeServerTenant } from '../../support/builders';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { addFixtureRows } from './personalDataFixtures';

const tenant: ServerTenant = makeServerTenant({
  id: uniqueTenantId('privacy'),
  name: 'Privacy catalogue',
  hosts: ['privacy.test'],
  defaultLocale: 'en-GB',
  locales: ['en-GB', 'de-DE'],
  features: [
    'sso-profile-page',
    'multi-user-licenses',
    'payment-history',
    'invoice-download',
    'loyalty-programme',
  ],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: true, sessionIdleMinutes: 30 },
  contact: {
    email: 'leser@privacy.example',
    fallbackEmail: 'leser@privacy.example',
    fallbackPhone: '+49 30 1',
  },
});
const today = new Date();
const tables = personalDataTables();
let db: Database;

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [tenant], { today });
  await addFixtureRows(db, tenant, today);
});

class Rollback extends Error {}

/** Runs the check inside a transaction that is always rolled back (a probe table never stays). */
async function inRolledBackTransaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await db
    .transaction(async (tx) => {
      result = await work(tx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return result as T;
}

describe("the catalogue against PostgreSQL's", () => {
  it('declares every table and column that looks like personal data, with all three handlings', async () => {
    const findings = auditCatalogue(await catalogueColumns(db), PERSONAL_DATA_CATALOGUE);
    expect(findings.map(describeFinding)).toEqual([]);
  });

  it('names a table no manifest declares, and an undeclared column of a declared one', async () => {
    const findings = await inRolledBackTransaction(async (tx) => {
      await tx.query(`create table privacy_probe (tenant_id text, user_id text, created_at timestamptz)`);
      await tx.query(`create table privacy_probe_notes (tenant_id text, id text, customer_note text)`);
      await tx.query(`alter table e_cards add column sender_phone text`);
      return auditCatalogue(await catalogueColumns(tx), PERSONAL_DATA_CATALOGUE).map(describeFinding);
    });
    expect(findings).toEqual([
      expect.stringMatching(/^e_cards\.sender_phone: looks like personal data/),
      'privacy_probe.user_id: names an account or business partner (user_id) and no manifest declares the table',
      expect.stringMatching(/^privacy_probe_notes\.customer_note: looks like personal data and no manifest/),
    ]);
    // Rolled back: the database is as the migrations left it.
    const [left] = await db.query(`select to_regclass('privacy_probe') as probe`);
    expect(left).toEqual({ probe: null });
  });

  it('refuses a declaration without all three handlings', () => {
    const [first] = tables;
    const findings = auditCatalogue(
      [{ table: first.table, column: first.columns[0], type: 'text' }],
      [
        {
          slice: 'probe',
          tables: [{ ...first, erase: { action: 'keep', reason: '' }, expire: { notExpired: '' } }],
        },
      ],
    ).map(describeFinding);
    expect(findings).toContain(`${first.table}: declaration lacks: erase, expire`);
  });
});

describe('the declared expiry is real', () => {
  it.each(tables.filter((t) => 'by' in t.expire).map((t) => [t.table, t] as const))(
    '%s: the clean-up named deletes from it',
    (_name, table) => {
      const expire = table.expire as { by: (...args: never[]) => unknown };
      expect(expire.by.toString()).toMatch(new RegExp(`delete from ${table.table}\\b`));
    },
  );
});

// --- the account's rows, export and deletion -------------------------------------------------

type Row = Record<string, unknown>;

/** The rows of a table that belong to each account of the tenant, by the manifest's `subject`. */
async function rowsByAccount(table: (typeof tables)[number]): Promise<Array<{ userId: string; row: Row }>> {
  return db.query(
    `select u.id as "userId", to_jsonb(t) as row from ${table.table} t
       join users u on u.tenant_id = t.tenant_id and (${table.subject})
      where t.tenant_id = $1 and u.deleted_at is null`,
    [tenant.id],
  );
}

async function primaryKey(table: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select a.attname as name from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = $1::regclass and i.indisprimary`,
    [table],
  );
  return rows.map((row) => row.name);
}

/** The strings a row's value shows in a JSON file (leaves of jsonb, numbers, text of 4+ characters). */
function leaves(value: unknown): string[] {
  if (value === null || value === undefined || typeof value === 'boolean') return [];
  if (typeof value === 'number') return [String(value)];
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.length < 4) return [];
    // A timestamp as to_jsonb writes it; the export writes it as ISO 8601 in UTC.
    if (/^\d{4}-\d\d-\d\dT/.test(text)) return [new Date(text).toISOString()];
    return [JSON.stringify(text).slice(1, -1)];
  }
  if (Array.isArray(value)) return value.flatMap(leaves);
  return Object.values(value as Row).flatMap(leaves);
}

const isUserLink = (column: string) =>
  linksAPerson(column) && column !== 'bp_number' && !column.includes('business_partner');

async function zipFiles(userId: string): Promise<Record<string, string>> {
  const stream: Readable = zipOfAccount(db, tenant, userId, 'en-GB', today);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const files = unzipSync(new Uint8Array(Buffer.concat(chunks)));
  // A folder of documents (invoices/) is one entry: each file's bytes as to_jsonb writes a bytea
  // column ("\x…"), escaped as leaves() gives it, so a kept document's row is found by its bytes.
  const folders: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(files)) {
    const folder = name.slice(0, name.lastIndexOf('/') + 1);
    if (name.endsWith('.json') || !folder) continue;
    const hex = JSON.stringify(`\\x${Buffer.from(bytes).toString('hex')}`).slice(1, -1);
    folders[folder] = `${folders[folder] ?? ''}${hex}\n`;
  }
  return {
    ...Object.fromEntries(
      Object.entries(files)
        .filter(([name]) => name.endsWith('.json'))
        .map(([name, bytes]) => [name, strFromU8(bytes)]),
    ),
    ...folders,
  };
}

describe('the declared export is real', () => {
  const exported = tables.filter((t) => 'file' in t.export);
  const zips = new Map<string, Promise<Record<string, string>>>();
  const zipOf = (userId: string) => {
    if (!zips.has(userId)) zips.set(userId, zipFiles(userId));
    return zips.get(userId)!;
  };

  it.each(exported.map((t) => [t.table, (t.export as { file: string }).file, t] as const))(
    '%s: in %s of an account with rows in it',
    async (_name, file, table) => {
      const rows = await rowsByAccount(table);
      expect(
        rows.length,
        `no account has rows in ${table.table}: add one to personalDataFixtures.ts`,
      ).toBeGreaterThan(0);
      const { userId, row } = rows[0];
      const files = await zipOf(userId);
      expect(Object.keys(files)).toContain(file);
      const declared = table.columns
        .filter((column) => !isUserLink(column))
        .flatMap((column) => leaves(row[column]));
      const candidates = declared.length
        ? declared
        : Object.entries(row)
            .filter(([column]) => column !== 'tenant_id' && !isUserLink(column))
            .flatMap(([, value]) => leaves(value));
      expect(
        candidates.some((value) => files[file].includes(value)),
        `${file} of ${userId} carries nothing of ${table.table} row ${JSON.stringify(row)}`,
      ).toBe(true);
    },
  );
});

describe('the declared erasure is real', () => {
  const erased = tables.filter((t) => t.erase.action !== 'keep');
  const before = new Map<string, Array<{ key: Row; row: Row }>>();

  beforeAll(async () => {
    // After the export's tests (vitest runs describe blocks in order): every account of the tenant goes.
    for (const table of erased) {
      const key = await primaryKey(table.table);
      before.set(
        table.table,
        (await rowsByAccount(table)).map(({ row }) => ({
          key: Object.fromEntries(key.map((column) => [column, row[column]])),
          row,
        })),
      );
    }
    const users = await db.query<{ id: string; email: string }>(
      `select id, email from users where tenant_id = $1 and deleted_at is null`,
      [tenant.id],
    );
    for (const user of users)
      await db.transaction((tx) => deleteAccountData(tx, tenant.id, user.id, user.email, today));
  });

  it.each(erased.map((t) => [t.table, t.erase.action, t] as const))(
    '%s: %s',
    async (_name, action, table) => {
      const rows = before.get(table.table)!;
      expect(
        rows.length,
        `no account has rows in ${table.table}: add one to personalDataFixtures.ts`,
      ).toBeGreaterThan(0);
      for (const { key, row } of rows) {
        const [after] = await db.query<{ row: Row }>(
          `select to_jsonb(t) as row from ${table.table} t
          where (select jsonb_object_agg(k, to_jsonb(t) -> k) from unnest($1::text[]) k) = $2::jsonb`,
          [Object.keys(key), JSON.stringify(key)],
        );
        const erase = table.erase;
        if (erase.action === 'delete') {
          expect(after, `${table.table} row ${JSON.stringify(key)} outlived the account`).toBeUndefined();
          continue;
        }
        if (!after || erase.action !== 'anonymise') continue;
        for (const column of erase.columns) {
          if (row[column] === null) continue;
          expect(after.row[column], `${table.table}.${column} of ${JSON.stringify(key)}`).not.toEqual(
            row[column],
          );
        }
      }
    },
  );
});
