/**
 * The order system's writes through the operator API: versioned upserts (an older
 * version refused with 409, the same record unchanged), deletes with tombstones, references checked
 * before anything is written, Idempotency-Key, scopes, and the NDJSON upload that runs the import.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import type { Database } from '../../../server/db/database';
import { createOperatorKey } from '../../../server/operator/keys/operatorKeys';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { deliveredIssuesPage, findDeliveredIssue } from '../../../server/store/orderStore';
import { latestDeliveredIssues } from '../../../server/store/accountChangeStore';
import { readRecord } from '../../../server/operator/entities/orderSystemRecords';
import { orderSystemEntity } from '../../../server/operator/entities/orderSystemEntities';

const tenant = makeServerTenant({
  id: uniqueTenantId('os-writes'),
  name: 'Verlag',
  hosts: [],
  defaultLocale: 'de-DE',
  features: [],
});
const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-os-writes-'));
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let writeKey: string;
let readKey: string;
let importKey: string;

async function call(route: string, key: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${key}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const response = await fetch(`${baseUrl}/t/${tenant.id}/operator/v1${route}`, { ...init, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const put = (route: string, json: unknown, key = writeKey, headers: Record<string, string> = {}) =>
  call(route, key, { method: 'PUT', json, headers });

/** An import of the given records, one NDJSON line each, with the import key. */
const importRecords = (entity: string, ...records: unknown[]) =>
  call(`/imports/${entity}`, importKey, {
    method: 'POST',
    body: records.map((record) => JSON.stringify(record)).join('\n'),
    headers: { 'content-type': 'application/x-ndjson' },
  });

const publication = { version: 1, publication: 'TAZ', clientId: '101', description: 'Die Tageszeitung' };
const partner = { version: 1, bpNumber: '1000000001', firstName: 'Anna', lastName1: 'Berg', city: 'Köln' };
const subscription = {
  version: 1,
  id: '101000123',
  orderNumber: '4000000123',
  publication: 'TAZ',
  orderStatus: 'A',
  mixType: 'PRINT',
  validFrom: '2026-01-01',
  roles: [{ bpNumber: '1000000001', role: 'AG' }],
};

beforeAll(async () => {
  db = await getTestDatabase();
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(outboxDir, 'no-dist'),
    mailer: createMailer({ outboxDir }),
  });
  ({ baseUrl, close } = await listen(app));
  const now = new Date();
  writeKey = (await createOperatorKey(db, tenant.id, { name: 'erp', scopes: ['read', 'write'], now })).secret;
  readKey = (await createOperatorKey(db, tenant.id, { name: 'bi', scopes: ['read'], now })).secret;
  importKey = (await createOperatorKey(db, tenant.id, { name: 'sync', scopes: ['import'], now })).secret;
});

afterAll(async () => close?.());

describe('PUT /operator/v1/<entity>/<key>', () => {
  it('creates, then answers unchanged for the same record, then updates with a newer version', async () => {
    expect((await put('/publications/TAZ', publication)).status).toBe(201);
    expect((await put('/business-partners/1000000001', partner)).body.result).toBe('created');
    const created = await put('/subscriptions/101000123', subscription);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      entity: 'subscriptions',
      key: '101000123',
      version: 1,
      result: 'created',
    });
    expect((await put('/subscriptions/101000123', subscription)).body.result).toBe('unchanged');

    const renamed = await put('/business-partners/1000000001', { ...partner, version: 2, city: 'Bonn' });
    expect(renamed.body.result).toBe('updated');
    const [row] = await db.query<{ city: string }>(
      `select city from business_partners where tenant_id = $1 and bp_number = '1000000001'`,
      [tenant.id],
    );
    expect(row.city).toBe('Bonn');
    const read = await call('/business-partners/1000000001', readKey);
    expect(read.body).toMatchObject({ version: 2, bpNumber: '1000000001', city: 'Bonn' });
  });

  it('answers unchanged for an amount of more than two decimals sent again, which the row holds in cents', async () => {
    const payment = {
      version: 1,
      subscriptionId: '101000123',
      id: 'P-CENTS',
      date: '2026-03-01',
      amount: 12.345,
      paidAmount: 5.555,
      invoiceStatusCode: 'O',
    };
    expect((await put('/payments/101000123~P-CENTS', payment)).body.result).toBe('created');
    // A full sync sends it again, by the API and by an import: the same record, nothing rewritten.
    expect((await put('/payments/101000123~P-CENTS', payment)).body.result).toBe('unchanged');
    const imported = await importRecords('payments', payment);
    expect(imported.body.entities[0]).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    const [row] = await db.query<{ amount: string; paid_amount: string }>(
      `select amount::text, paid_amount::text from payment_history where tenant_id = $1 and id = 'P-CENTS'`,
      [tenant.id],
    );
    expect(row).toEqual({ amount: '12.35', paid_amount: '5.56' });
    // Another amount at a newer version is a change.
    expect(
      (await put('/payments/101000123~P-CENTS', { ...payment, version: 2, amount: 12.355 })).body.result,
    ).toBe('updated');
  });

  it("shows a delivered issue sent by its keys alone with its publication's issue: number, description, date", async () => {
    expect(
      (
        await put('/issues/TAZ~2026-48', {
          version: 1,
          publication: 'TAZ',
          issue: '2026-48',
          issueNumber: '48',
          description: 'Ausgabe 48',
          dateOfFirstSale: '2026-11-27',
          translations: { 'en-GB': { description: 'Issue 48' } },
        })
      ).body.result,
    ).toBe('created');
    expect(
      (
        await put('/delivered-issues/101000123~2026-48', {
          version: 1,
          subscriptionId: '101000123',
          issue: '2026-48',
        })
      ).body.result,
    ).toBe('created');
    const shown = {
      issue: '2026-48',
      issueNumber: '48',
      description: 'Issue 48',
      dateOfFirstSale: '2026-11-27',
    };
    expect(
      (await deliveredIssuesPage(db, tenant.id, '101000123', { page: 0 }, { locale: 'en-GB' })).items,
    ).toEqual([{ ...shown, downloadStatus: 'unknown' }]);
    expect(
      await findDeliveredIssue(db, tenant.id, '101000123', '2026-48', { locale: 'de-DE' }),
    ).toMatchObject({
      ...shown,
      description: 'Ausgabe 48',
    });
    // The complaint's list of issues too.
    expect((await latestDeliveredIssues(db, tenant.id, '101000123', 5))[0]).toMatchObject({
      issueNumber: '48',
      description: 'Ausgabe 48',
      dateOfFirstSale: '2026-11-27',
    });
    // What the delivery names itself stands.
    await put('/delivered-issues/101000123~2026-48', {
      version: 2,
      subscriptionId: '101000123',
      issue: '2026-48',
      description: 'Sonderausgabe',
    });
    expect(await findDeliveredIssue(db, tenant.id, '101000123', '2026-48')).toMatchObject({
      issueNumber: '48',
      description: 'Sonderausgabe',
    });
  });

  it('refuses an older version with 409 and changes nothing', async () => {
    const stale = await put('/business-partners/1000000001', { ...partner, version: 1, city: 'Aachen' });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'stale_version',
      details: { storedVersion: 2, version: 1 },
    });
    const same = await put('/business-partners/1000000001', { ...partner, version: 2, city: 'Aachen' });
    expect(same.status).toBe(409);
    const [row] = await db.query<{ city: string }>(
      `select city from business_partners where tenant_id = $1 and bp_number = '1000000001'`,
      [tenant.id],
    );
    expect(row.city).toBe('Bonn');
  });

  it('keeps the newest of two writes sent at once: never an older record under the newer version', async () => {
    for (let round = 0; round < 12; round++) {
      const key = `ZR${String(round).padStart(2, '0')}`;
      const record = (version: number) => ({
        ...publication,
        publication: key,
        version,
        description: `v${version}`,
      });
      expect((await put(`/publications/${key}`, record(1))).status).toBe(201);
      const answers = await Promise.all([
        put(`/publications/${key}`, record(3)),
        put(`/publications/${key}`, record(2)),
      ]);
      expect(answers[0].status).toBe(200);
      // The older one either came first (and was overwritten) or is refused.
      expect([200, 409]).toContain(answers[1].status);
      const stored = await call(`/publications/${key}`, readKey);
      expect(stored.body).toMatchObject({ version: 3, description: 'v3' });
      // The newest write again is the same record: unchanged, not refused.
      expect((await put(`/publications/${key}`, record(3))).body.result).toBe('unchanged');
    }
  });

  it('keeps a newer version that repeats the stored record over an older change sent at the same time', async () => {
    for (let round = 0; round < 12; round++) {
      const key = `ZU${String(round).padStart(2, '0')}`;
      const record = (version: number, description: string) => ({
        ...publication,
        publication: key,
        version,
        description,
      });
      expect((await put(`/publications/${key}`, record(1, 'same'))).status).toBe(201);
      await Promise.all([
        put(`/publications/${key}`, record(3, 'same')),
        put(`/publications/${key}`, record(2, 'changed')),
      ]);
      expect((await call(`/publications/${key}`, readKey)).body).toMatchObject({
        version: 3,
        description: 'same',
      });
    }
  });

  it('takes one of several different records sent at once at the same version, and refuses the others', async () => {
    const key = 'ZSAME';
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        put(`/publications/${key}`, { ...publication, publication: key, description: `copy ${i}` }),
      ),
    );
    const taken = answers.filter((answer) => answer.status < 300);
    expect(taken).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(7);
    const stored = await call(`/publications/${key}`, readKey);
    expect(stored.body.description).toBe(`copy ${answers.indexOf(taken[0])}`);
  });

  it('takes an RFC 3339 time as the version', async () => {
    const later = { ...partner, version: '2030-01-01T00:00:00Z', city: 'Trier' };
    expect((await put('/business-partners/1000000001', later)).body.result).toBe('updated');
    expect(
      (await put('/business-partners/1000000001', { ...later, version: '2029-12-31T23:59:59Z' })).status,
    ).toBe(409);
  });

  it('replaces the roles with the record', async () => {
    await put('/business-partners/1000000002', { ...partner, version: 1, bpNumber: '1000000002' });
    const moved = { ...subscription, version: 2, roles: [{ bpNumber: '1000000002', role: 'WE' }] };
    expect((await put('/subscriptions/101000123', moved)).body.result).toBe('updated');
    const roles = await db.query(
      `select bp_number, role from subscription_roles where tenant_id = $1 and subscription_id = '101000123'`,
      [tenant.id],
    );
    expect(roles).toEqual([{ bp_number: '1000000002', role: 'WE' }]);
  });

  it('answers unchanged for the record its GET answers, and for its roles in any order', async () => {
    const three = {
      ...subscription,
      version: 3,
      roles: [
        { bpNumber: '1000000002', role: 'AG' },
        { bpNumber: '1000000001', role: 'WE' },
        { bpNumber: '1000000001', role: 'RE' },
      ],
    };
    expect((await put('/subscriptions/101000123', three)).body.result).toBe('updated');
    const read = await call('/subscriptions/101000123', readKey);
    expect(read.status).toBe(200);
    expect((await put('/subscriptions/101000123', read.body)).body.result).toBe('unchanged');
    for (const roles of [[...three.roles].reverse(), [three.roles[1], three.roles[0], three.roles[2]]])
      expect((await put('/subscriptions/101000123', { ...three, roles })).body.result).toBe('unchanged');
    // Other roles at the same version are another record: refused as before.
    const other = { ...three, roles: [three.roles[0], { bpNumber: '1000000002', role: 'WE' }] };
    expect((await put('/subscriptions/101000123', other)).status).toBe(409);
    const imported = await importRecords('subscriptions', { ...three, roles: [...three.roles].reverse() });
    expect(imported.body.entities[0]).toMatchObject({ created: 0, updated: 0, unchanged: 1, refused: 0 });
  });

  it('keeps a record stored before roles were a set the same record when it comes again as it was sent', async () => {
    const four = {
      ...subscription,
      version: 4,
      roles: [
        { bpNumber: '1000000002', role: 'WE' },
        { bpNumber: '1000000001', role: 'AG' },
      ],
    };
    expect((await put('/subscriptions/101000123', four)).body.result).toBe('updated');
    // As an earlier release stored it: under the hash of its roles in the order sent.
    const read = readRecord(orderSystemEntity('subscriptions')!, structuredClone(four));
    const sentHash = read.ok ? read.staged.sentHash : undefined;
    expect(sentHash).toBeDefined();
    await db.query(
      `update order_system_versions set content_hash = $3 where tenant_id = $1 and entity = 'subscriptions' and record_key = $2`,
      [tenant.id, '101000123', sentHash],
    );
    expect((await put('/subscriptions/101000123', four)).body.result).toBe('unchanged');
    const imported = await importRecords('subscriptions', four);
    expect(imported.body.entities[0]).toMatchObject({ unchanged: 1, refused: 0 });
    // As its GET answers it (the roles in another order), by the API and by an import: the rows
    // show this record, so it is the same one.
    const asRead = (await call('/subscriptions/101000123', readKey)).body;
    expect(asRead.roles).not.toEqual(four.roles);
    expect((await put('/subscriptions/101000123', asRead)).body.result).toBe('unchanged');
    const reimported = await importRecords('subscriptions', asRead);
    expect(reimported.body.entities[0]).toMatchObject({ unchanged: 1, refused: 0 });
    // Another record at that version is still refused.
    const other = { ...four, roles: [four.roles[1]] };
    expect((await put('/subscriptions/101000123', other)).status).toBe(409);
    // Its next version (the same content: unchanged, as any newer version that repeats a record) is
    // stored as a set.
    expect((await put('/subscriptions/101000123', { ...four, version: 5 })).body.result).toBe('unchanged');
    const reversed = { ...four, version: 5, roles: [...four.roles].reverse() };
    expect((await put('/subscriptions/101000123', reversed)).body.result).toBe('unchanged');
  });

  it("leaves a licence's roles, the portal's own rows, out of the GET, and keeps them through the record sent back", async () => {
    await put('/business-partners/1000000003', { ...partner, version: 1, bpNumber: '1000000003' });
    // A licence user's goods-recipient role, as the licence manager's change writes it.
    await db.query(
      `insert into subscription_roles (tenant_id, subscription_id, bp_number, role, via_license)
       values ($1, '101000123', '1000000003', 'WE', true)`,
      [tenant.id],
    );
    const read = await call('/subscriptions/101000123', readKey);
    expect(read.status).toBe(200);
    expect(read.body.roles).not.toContainEqual(expect.objectContaining({ bpNumber: '1000000003' }));
    expect((await put('/subscriptions/101000123', read.body)).body.result).toBe('unchanged');
    const licenceRows = () =>
      db.query(
        `select role from subscription_roles
          where tenant_id = $1 and subscription_id = '101000123' and bp_number = '1000000003' and via_license`,
        [tenant.id],
      );
    expect(await licenceRows()).toEqual([{ role: 'WE' }]);
    // Its next version replaces the order system's roles only.
    const next = { ...read.body, version: 6, roles: [{ bpNumber: '1000000002', role: 'AG' }] };
    expect((await put('/subscriptions/101000123', next)).body.result).toBe('updated');
    expect(await licenceRows()).toEqual([{ role: 'WE' }]);
    expect((await call('/subscriptions/101000123', readKey)).body.roles).toEqual(next.roles);
  });

  it('answers every problem of a bad record with its pointer, and a missing reference with 422', async () => {
    const bad = await put('/subscriptions/101000999', {
      version: -1,
      id: '101000999',
      orderNumber: '12',
      publication: 'TAZ',
      orderStatus: 'X',
      roles: [],
      colour: 'red',
    });
    expect(bad.status).toBe(400);
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining(['/version', '/orderNumber', '/orderStatus', '/mixType', '/colour']),
    );

    const unknown = await put('/subscriptions/101000998', {
      ...subscription,
      id: '101000998',
      orderNumber: '4000000998',
      publication: 'NOPE',
      roles: [{ bpNumber: '1000009999', role: 'AG' }],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([
      { field: '/publication', message: expect.stringContaining('publications "NOPE"') },
      { field: '/roles/0/bpNumber', message: expect.stringContaining('business-partners "1000009999"') },
    ]);
    const rows = await db.query(`select 1 from subscriptions where tenant_id = $1 and id = '101000998'`, [
      tenant.id,
    ]);
    expect(rows).toHaveLength(0);
  });

  it("refuses a record written to another key's path, an unknown entity, and a key without the write scope", async () => {
    expect((await put('/business-partners/1000000003', partner)).body.error.code).toBe('key_mismatch');
    expect((await put('/colours/red', partner)).status).toBe(404);
    const readOnly = await put('/business-partners/1000000001', { ...partner, version: 9 }, readKey);
    expect(readOnly.status).toBe(403);
  });
});

describe('Idempotency-Key', () => {
  it('answers a retry with the first answer and refuses the key for another request', async () => {
    const record = { ...partner, bpNumber: '1000000010', version: 1 };
    const headers = { 'idempotency-key': 'retry-1' };
    const first = await put('/business-partners/1000000010', record, writeKey, headers);
    expect(first.status).toBe(201);
    const retry = await put('/business-partners/1000000010', record, writeKey, headers);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const other = await put('/business-partners/1000000010', { ...record, version: 2 }, writeKey, headers);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });

  it('runs a write once when its retries arrive while it runs: the others get its answer or 409 in use', async () => {
    const record = { ...partner, bpNumber: '1000000014', version: 1 };
    const headers = { 'idempotency-key': 'concurrent-1' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => put('/business-partners/1000000014', record, writeKey, headers)),
    );
    const ran = answers.filter((answer) => answer.status < 300 && !answer.headers.get('idempotent-replayed'));
    expect(ran).toHaveLength(1);
    expect(ran[0].body.result).toBe('created');
    for (const answer of answers.filter((a) => a !== ran[0])) {
      if (answer.status === 409) {
        expect(answer.body.error.code).toBe('idempotency_key_in_use');
        expect(answer.headers.get('retry-after')).toBe('1');
      } else expect(answer.body).toEqual(ran[0].body);
    }
    const retry = await put('/business-partners/1000000014', record, writeKey, headers);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(ran[0].body);
  });

  it("does not replay a read key's 403 to a write key retrying with the same Idempotency-Key", async () => {
    const record = { ...partner, bpNumber: '1000000011', version: 1 };
    const headers = { 'idempotency-key': 'scope-1' };
    const refused = await put('/business-partners/1000000011', record, readKey, headers);
    expect(refused.status).toBe(403);
    const written = await put('/business-partners/1000000011', record, writeKey, headers);
    expect(written.status).toBe(201);
    expect(written.headers.get('idempotent-replayed')).toBeNull();
    expect(written.body.result).toBe('created');
  });

  it("does not replay a write key's 201 to a read key, nor to another write key", async () => {
    const record = { ...partner, bpNumber: '1000000012', version: 1 };
    const headers = { 'idempotency-key': 'scope-2' };
    expect((await put('/business-partners/1000000012', record, writeKey, headers)).status).toBe(201);
    const reader = await put('/business-partners/1000000012', record, readKey, headers);
    expect(reader.status).toBe(403);
    expect(reader.headers.get('idempotent-replayed')).toBeNull();
    // Each API key has its own idempotency keys: the other key's request runs as its own.
    const other = (
      await createOperatorKey(db, tenant.id, { name: 'erp-2', scopes: ['write'], now: new Date() })
    ).secret;
    const second = await put('/business-partners/1000000012', record, other, headers);
    expect(second.status).toBe(200);
    expect(second.body.result).toBe('unchanged');
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });

  it('takes the query as part of the request: DELETE ?version=2, then ?version=7, is not a replay', async () => {
    const record = { ...partner, bpNumber: '1000000013', version: 1 };
    expect((await put('/business-partners/1000000013', record)).status).toBe(201);
    const headers = { 'idempotency-key': 'delete-1' };
    const first = await call('/business-partners/1000000013?version=2', writeKey, {
      method: 'DELETE',
      headers,
    });
    expect(first.body).toMatchObject({ result: 'deleted', version: 2 });
    const again = await call('/business-partners/1000000013?version=2', writeKey, {
      method: 'DELETE',
      headers,
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const later = await call('/business-partners/1000000013?version=7', writeKey, {
      method: 'DELETE',
      headers,
    });
    expect(later.status).toBe(422);
    expect(later.body.error.code).toBe('idempotency_key_reused');
    const [row] = await db.query<{ version: string }>(
      `select version from order_system_versions where tenant_id = $1 and entity = 'business-partners' and record_key = '1000000013'`,
      [tenant.id],
    );
    expect(Number(row.version)).toBe(2);
  });
});

describe('DELETE /operator/v1/<entity>/<key>?version=N', () => {
  it('deletes, keeps a tombstone that refuses an older upsert, and will not delete a partner still named', async () => {
    const payment = {
      version: 1,
      subscriptionId: '101000123',
      id: 'P1',
      date: '2026-02-01',
      amount: '12.50',
      invoiceStatusCode: 'A',
    };
    expect((await put('/payments/101000123~P1', payment)).status).toBe(201);
    const stale = await call('/payments/101000123~P1?version=1', writeKey, { method: 'DELETE' });
    expect(stale.status).toBe(409);
    // Said as what a delete is: the record's next version.
    expect(stale.body.error.message).toMatch(
      /^A delete is the record's next version: this one's \(1\) is not newer than the stored version/,
    );
    const deleted = await call('/payments/101000123~P1?version=3', writeKey, { method: 'DELETE' });
    expect(deleted.body.result).toBe('deleted');
    expect((await put('/payments/101000123~P1', { ...payment, version: 2 })).status).toBe(409);
    expect((await put('/payments/101000123~P1', { ...payment, version: 4 })).body.result).toBe('created');

    const named = await call('/business-partners/1000000002?version=99', writeKey, { method: 'DELETE' });
    expect(named.status).toBe(409);
    expect(named.body.error.code).toBe('still_referenced');
  });
});

describe('POST /operator/v1/imports/<entity>', () => {
  const upload = (entity: string, text: string, key = importKey) =>
    call(`/imports/${entity}`, key, {
      method: 'POST',
      body: text,
      headers: { 'content-type': 'application/x-ndjson' },
    });

  it('imports an NDJSON file and says what it created, updated, left and refused', async () => {
    const lines = [
      { ...partner, bpNumber: '1000000020', version: 1 },
      { ...partner, bpNumber: '1000000021', version: 1 },
      { ...partner, bpNumber: '1000000001', version: 1 },
    ];
    const answer = await upload('business-partners', lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(answer.status).toBe(200);
    expect(answer.body.entities[0]).toMatchObject({
      created: 2,
      updated: 0,
      unchanged: 0,
      refused: 1,
      lines: 3,
    });
  });

  it('lists every bad line as file:line /pointer message and writes nothing', async () => {
    const text = [
      JSON.stringify({ ...partner, bpNumber: '1000000030', version: 1 }),
      '{"version": 1, "bpNumber": "12"',
      JSON.stringify({ version: 1, bpNumber: '1000000031', shoeSize: 42 }),
    ].join('\n');
    const answer = await upload('business-partners', text);
    expect(answer.status).toBe(422);
    const texts = answer.body.error.details.map((d: { text: string }) => d.text);
    expect(texts[0]).toMatch(/^business-partners\.ndjson:2 is not JSON/);
    expect(texts[1]).toBe('business-partners.ndjson:3 /shoeSize is not a field of this record');
    const rows = await db.query(
      `select 1 from business_partners where tenant_id = $1 and bp_number = '1000000030'`,
      [tenant.id],
    );
    expect(rows).toHaveLength(0);
  });

  it('refuses an upload with a key twice, naming both lines, and writes nothing', async () => {
    const text = [
      { ...partner, bpNumber: '1000000040', version: 2 },
      { ...partner, bpNumber: '1000000041', version: 1 },
      { ...partner, bpNumber: '1000000040', version: 1, firstName: 'Older' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const answer = await upload('business-partners', text);
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.map((d: { text: string }) => d.text)).toEqual([
      'business-partners.ndjson:3 /bpNumber "1000000040" appears again: line 1 has the same key',
    ]);
    const rows = await db.query(
      `select 1 from business_partners where tenant_id = $1 and bp_number in ('1000000040', '1000000041')`,
      [tenant.id],
    );
    expect(rows).toHaveLength(0);
  });

  it('refuses a record sent as UTF-8 that is not, rather than storing U+FFFD for its bytes', async () => {
    const latin1 = Buffer.from(
      JSON.stringify({ ...partner, bpNumber: '1000000077', city: 'Düren' }),
      'latin1',
    );
    const response = await call('/business-partners/1000000077', writeKey, {
      method: 'PUT',
      body: latin1,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'malformed_request',
      message: 'The request body is not valid UTF-8.',
    });
    expect((await call('/business-partners/1000000077', writeKey)).status).toBe(404);
  });

  it('answers a record sent as another media type with 415, not as an empty record', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const response = await call('/business-partners/1000000078', writeKey, {
        method: 'PUT',
        body: JSON.stringify({ ...partner, bpNumber: '1000000078' }),
        headers: { 'content-type': type },
      });
      expect(response.status, type).toBe(415);
      expect(response.body.error).toMatchObject({
        code: 'unsupported_media_type',
        message: 'Send the body as application/json.',
      });
    }
    expect((await call('/business-partners/1000000078', writeKey)).status).toBe(404);
  });

  it('takes the file gzipped (Content-Encoding: gzip), and refuses other encodings and broken gzip', async () => {
    const text = [1, 2]
      .map((i) => JSON.stringify({ ...partner, bpNumber: `100000009${i}`, version: 1 }))
      .join('\n');
    const send = (body: Buffer | string, encoding: string) =>
      call('/imports/business-partners', importKey, {
        method: 'POST',
        body: body as BodyInit,
        headers: { 'content-type': 'application/x-ndjson', 'content-encoding': encoding },
      });
    const gzipped = await send(gzipSync(text), 'gzip');
    expect(gzipped.status).toBe(200);
    expect(gzipped.body.entities[0]).toMatchObject({ lines: 2, created: 2 });

    const brotli = await send(brotliCompressSync(text), 'br');
    expect(brotli.status).toBe(415);
    expect(brotli.body.error.code).toBe('unsupported_content_encoding');

    const cut = gzipSync(text.replace(/1000000091/, '1000000093')).subarray(0, 30);
    const broken = await send(cut, 'gzip');
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('upload_not_gzip');
    const plain = await send(text.replace(/1000000091/, '1000000094'), 'gzip');
    expect(plain.status).toBe(400);
    expect(plain.body.error.code).toBe('upload_not_gzip');
    const rows = await db.query(
      `select 1 from business_partners where tenant_id = $1 and bp_number in ('1000000093', '1000000094')`,
      [tenant.id],
    );
    expect(rows).toHaveLength(0);
  });

  it('needs the import scope and NDJSON', async () => {
    expect((await upload('business-partners', '', writeKey)).status).toBe(403);
    const json = await call('/imports/business-partners', importKey, {
      method: 'POST',
      json: { version: 1 },
    });
    expect(json.status).toBe(415);
    // An NDJSON file sent as JSON is not read as JSON first (a 400 malformed_request the document
    // did not list): the upload is refused for its media type, as the document says.
    const file = await call('/imports/business-partners', importKey, {
      method: 'POST',
      body: '{"version": 1, "bpNumber": "1000000040"}\n{"version": 1, "bpNumber": "1000000041"}\n',
      headers: { 'content-type': 'application/json' },
    });
    expect(file.status).toBe(415);
    expect(file.body.error.code).toBe('unsupported_media_type');
  });
});

describe('the checks the upserts and the import share', () => {
  const upload = (entity: string, records: unknown[]) =>
    call(`/imports/${entity}`, importKey, {
      method: 'POST',
      body: records.map((r) => JSON.stringify(r)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson' },
    });
  /** The 400's details of a PUT, as `pointer message`. */
  const refusedPut = async (route: string, record: unknown) => {
    const answer = await put(route, record);
    expect(answer.status, route).toBe(400);
    expect(answer.body.error.code).toBe('validation_failed');
    return answer.body.error.details.map(
      (d: { field: string; message: string }) => `${d.field} ${d.message}`,
    );
  };
  /** The import's lines for the same records, as `file:line /pointer message`. */
  const refusedImport = async (entity: string, records: unknown[]) => {
    const answer = await upload(entity, records);
    expect(answer.status, entity).toBe(422);
    return answer.body.error.details.map((d: { text: string }) => d.text);
  };
  const required = 'is required: one text per locale of the tenant (de-DE, en-GB)';
  const foreign = 'is not a locale of this tenant (de-DE, en-GB)';
  const reason = { version: 1, publication: 'TAZ', code: 'ZEIT', descriptions: { 'de-DE': 'Keine Zeit' } };
  const offer = {
    version: 1,
    id: 'TAZ-RENEW-12',
    publication: 'TAZ',
    category: 'RENEW',
    paymentProvider: 'INVOICE',
    offer: { kind: 'article', texts: { 'de-DE': { description: 'Ein Jahr', title: 'Verlängern' } } },
    effect: { kind: 'extend', months: 12 },
  };
  const tier = {
    version: 1,
    tierCode: 'SILVER',
    position: 1,
    name: { 'de-DE': 'Silber' },
    description: { 'de-DE': '', 'en-GB': '' },
    runtimeToReach: 12,
  };
  const pending = {
    version: 1,
    id: 'PO-1',
    bpNumber: '1000000001',
    source: 'VHS',
    title: 'Probeabo',
    translations: { 'fr-FR': { title: 'Essai' } },
  };
  const purchase = {
    version: 1,
    id: 'PO-2',
    purchaseOrderNumber: '4000000002',
    distributionArticleNumber: 'A1',
    distributionArticleDescription: 'Kalender',
    dateOfPurchaseOrderClient: '2026-01-01',
    invoiceStatus: 1,
    roles: [{ bpNumber: '1000000001', role: 'AG' }],
    details: { translations: { 'fr-FR': { distributionArticleDescription: 'Calendrier' } } },
  };
  const translated = {
    ...subscription,
    id: '101000700',
    orderNumber: '4000000700',
    details: { displayName: 'Digital', translations: { 'fr-FR': { displayName: 'Numérique' } } },
  };

  it("wants every text by locale in each of the tenant's locales, and in none other", async () => {
    expect((await put('/publications/TAZ', publication)).status).toBeLessThan(300);
    expect(await refusedPut('/cancellation-reasons/TAZ~ZEIT', reason)).toEqual([
      `/descriptions/en-GB ${required}`,
    ]);
    expect(
      await refusedPut('/cancellation-reasons/TAZ~ZEIT', {
        ...reason,
        descriptions: { 'de-DE': 'Keine Zeit', 'en-GB': 'No time', 'fr-FR': 'Pas le temps' },
      }),
    ).toEqual([`/descriptions/fr-FR ${foreign}`]);
    expect(await refusedPut('/offers/TAZ-RENEW-12', offer)).toEqual([`/offer/texts/en-GB ${required}`]);
    expect(await refusedPut('/loyalty-tiers/SILVER', tier)).toEqual([`/name/en-GB ${required}`]);
    expect(await refusedPut('/pending-orders/PO-1', pending)).toEqual([`/translations/fr-FR ${foreign}`]);
    expect(await refusedPut('/purchase-orders/PO-2', purchase)).toEqual([
      `/details/translations/fr-FR ${foreign}`,
    ]);
    expect(await refusedPut('/subscriptions/101000700', translated)).toEqual([
      `/details/translations/fr-FR ${foreign}`,
    ]);
    const both = await put('/cancellation-reasons/TAZ~ZEIT', {
      ...reason,
      descriptions: { 'de-DE': 'Keine Zeit', 'en-GB': 'No time' },
    });
    expect(both.status).toBe(201);

    expect(await refusedImport('cancellation-reasons', [reason])).toEqual([
      `cancellation-reasons.ndjson:1 /descriptions/en-GB ${required}`,
    ]);
    expect(await refusedImport('offers', [offer])).toEqual([
      `offers.ndjson:1 /offer/texts/en-GB ${required}`,
    ]);
    expect(await refusedImport('loyalty-tiers', [tier])).toEqual([
      `loyalty-tiers.ndjson:1 /name/en-GB ${required}`,
    ]);
    expect(await refusedImport('pending-orders', [pending])).toEqual([
      `pending-orders.ndjson:1 /translations/fr-FR ${foreign}`,
    ]);
    expect(await refusedImport('purchase-orders', [purchase])).toEqual([
      `purchase-orders.ndjson:1 /details/translations/fr-FR ${foreign}`,
    ]);
    expect(await refusedImport('subscriptions', [translated])).toEqual([
      `subscriptions.ndjson:1 /details/translations/fr-FR ${foreign}`,
    ]);
  });

  it('refuses a subscription that ends before it starts, names a partner in a role twice or has two ordering parties', async () => {
    const sub = { ...subscription, id: '101000701', orderNumber: '4000000701' };
    const backwards = { ...sub, validFrom: '2026-01-01', validTo: '2020-01-01' };
    const twice = {
      ...sub,
      roles: [
        { bpNumber: '1000000001', role: 'AG' },
        { bpNumber: '1000000001', role: 'AG' },
      ],
    };
    const twoParties = {
      ...sub,
      roles: [
        { bpNumber: '1000000001', role: 'AG' },
        { bpNumber: '1000000020', role: 'AG' },
      ],
    };
    const problems = [
      '/validTo must not be before validFrom (2026-01-01)',
      '/roles/1 names 1000000001 as AG again (as /roles/0 does): each partner once per role',
      '/roles/1 is a second ordering party (AG) beside 1000000001 (/roles/0): a subscription has one ordering party',
    ];
    expect(await refusedPut('/subscriptions/101000701', backwards)).toEqual([problems[0]]);
    expect(await refusedPut('/subscriptions/101000701', twice)).toEqual([problems[1]]);
    expect(await refusedPut('/subscriptions/101000701', twoParties)).toEqual([problems[2]]);
    expect(
      await refusedImport('subscriptions', [
        backwards,
        { ...twice, id: '101000702', orderNumber: '4000000702' },
        { ...twoParties, id: '101000703', orderNumber: '4000000703' },
      ]),
    ).toEqual(problems.map((problem, i) => `subscriptions.ndjson:${i + 1} ${problem}`));
    const rows = await db.query(
      `select 1 from subscriptions where tenant_id = $1 and id in ('101000701', '101000702', '101000703')`,
      [tenant.id],
    );
    expect(rows).toHaveLength(0);
  });

  it('refuses a version given as a time after 9999 by its offset', async () => {
    const late = { ...partner, bpNumber: '1000000060', version: '9999-12-31T23:59:59-01:00' };
    const range = 'must be a whole number from 0 to 9007199254740991 or an RFC 3339 time from 1970 to 9999';
    expect(await refusedPut('/business-partners/1000000060', late)).toEqual([`/version ${range}`]);
    expect(await refusedImport('business-partners', [late])).toEqual([
      `business-partners.ndjson:1 /version ${range}`,
    ]);
    const deleted = await call('/business-partners/1000000060?version=9999-12-31T23:59:59-01:00', writeKey, {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(400);
    expect(
      (await put('/business-partners/1000000060', { ...late, version: '9999-12-31T23:59:59+01:00' })).status,
    ).toBe(201);
  });

  it('refuses a record longer than the import takes a line (1 MB as JSON in UTF-8) with 413', async () => {
    const sized = (bpNumber: string, bytes: number) => {
      const record = { ...partner, bpNumber, details: { big: '' } };
      // "ä" is 2 bytes in UTF-8: the limit is in bytes, not characters.
      const filler = bytes - Buffer.byteLength(JSON.stringify(record));
      record.details.big = 'ä'.repeat(Math.floor(filler / 2)) + 'a'.repeat(filler % 2);
      expect(Buffer.byteLength(JSON.stringify(record))).toBe(bytes);
      return record;
    };
    const tooLong = sized('1000000061', 1024 ** 2 + 1);
    const answer = await put('/business-partners/1000000061', tooLong);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({
      code: 'payload_too_large',
      message:
        'The business-partners record is 1,048,577 bytes as JSON (UTF-8): a record may be at most 1 MB, the longest line the import takes, so that every record an upsert keeps imports too.',
    });
    expect(await refusedImport('business-partners', [tooLong])).toEqual([
      'business-partners.ndjson:1 is longer than 1 MB (1,048,577 bytes)',
    ]);
    // At the limit, both take it.
    expect((await put('/business-partners/1000000062', sized('1000000062', 1024 ** 2))).status).toBe(201);
    const atLimit = await upload('business-partners', [sized('1000000063', 1024 ** 2)]);
    expect(atLimit.status).toBe(200);
  });
});
