/**
 * The full sync of an import (docs/going-live.md "Going live with your order system", 3. Import,
 * "A full sync"): `portal import --full` and `POST /imports/<entity>?full=true` take each file as
 * the complete set of its entity and delete the records it does not name, as `DELETE …?version=`
 * does, in the import's transaction; nothing is deleted without it; a deletion other records
 * still stand in the way of refuses the import whole; the guard refuses a file that would delete
 * more than the share allowed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import type { Database } from '../../../server/db/database';
import { parseAllowDeletes, runImport } from '../../../cli/commands/import';
import { recordEvent } from '../../../server/events/recordEvent';
import { createOperatorKey } from '../../../server/operator/keys/operatorKeys';
import { orderSystemEntity } from '../../../server/operator/entities/orderSystemEntities';
import { deleteRecord } from '../../../server/store/orderSystemStore';
import { listSubscriptionsForUser, updateSubscription } from '../../../server/store/subscriptionStore';
import { createUser, linkBusinessPartner } from '../../../server/store/userStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';

let db: Database;
beforeAll(async () => {
  db = await getTestDatabase();
});

const ndjson = (records: unknown[]) =>
  records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');

function folderWith(files: Record<string, unknown[]>): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'portal-import-full-'));
  for (const [name, records] of Object.entries(files))
    writeFileSync(path.join(folder, name), ndjson(records));
  return folder;
}

const publication = { version: 1, publication: 'RBT', clientId: '301', description: 'Rhein-Bote' };
const partner = (bpNumber: string, email = `p${bpNumber}@example.com`) => ({
  version: 1,
  bpNumber,
  firstName: 'Anna',
  lastName1: 'Berg',
  emailAddress: email,
});
const subscription = (id: string, bpNumber = '3019900001') => ({
  version: 1,
  id,
  orderNumber: `40${id.slice(-8)}`,
  publication: 'RBT',
  orderStatus: 'A',
  mixType: 'PR',
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

const S1 = subscription('3019000001');
const S2 = subscription('3019000002');

/** A tenant with one publication, one partner and its two subscriptions (S2 with a payment), and its subscriber. */
async function tenantWithTwo(prefix: string) {
  const tenantId = uniqueTenantId(prefix);
  const first = await runImport(
    db,
    tenantId,
    folderWith({
      'publications.ndjson': [publication],
      'business-partners.ndjson': [partner('3019900001')],
      'subscriptions.ndjson': [S1, S2],
      'payments.ndjson': [payment(S2.id, 'P1')],
    }),
  );
  expect(first.result.ok, first.text).toBe(true);
  const user = await createUser(db, tenantId, { email: 'p3019900001@example.com' });
  await linkBusinessPartner(db, tenantId, user.id, '3019900001');
  const listed = async () =>
    (await listSubscriptionsForUser(db, tenantId, user.id, { locale: 'de-DE' })).map((s) => s.id).sort();
  expect(await listed()).toEqual([S1.id, S2.id]);
  return { tenantId, user, listed };
}

async function rows(sql: string, params: unknown[]) {
  return db.query<Record<string, unknown>>(sql, params);
}

const versionOf = async (tenantId: string, entity: string, key: string) =>
  (
    await rows(
      `select version::int as version, deleted, content_hash from order_system_versions
        where tenant_id = $1 and entity = $2 and record_key = $3`,
      [tenantId, entity, key],
    )
  )[0];

describe('portal import --full', () => {
  it('without --full removes nothing: the file with one of two subscriptions leaves both (the probe)', async () => {
    const { tenantId, listed } = await tenantWithTwo('full-off');
    const folder = folderWith({ 'subscriptions.ndjson': [S1] });
    for (let run = 0; run < 2; run++) {
      const { result, text } = await runImport(db, tenantId, folder);
      expect(result.ok, text).toBe(true);
      expect(result.entities).toEqual([
        expect.objectContaining({
          entity: 'subscriptions',
          unchanged: 1,
          created: 0,
          updated: 0,
          deleted: 0,
        }),
      ]);
      expect(text).toMatch(/^file\s+lines\s+created\s+updated\s+unchanged\s+refused\s+deleted$/m);
    }
    expect(await listed()).toEqual([S1.id, S2.id]);
  });

  it('deletes the records of the file’s entity it does not name, and a second identical run changes nothing', async () => {
    const { tenantId, listed } = await tenantWithTwo('full-on');
    const folder = folderWith({ 'subscriptions.ndjson': [S1] });
    const { result, text } = await runImport(db, tenantId, folder, { full: true, maxDeletePercent: 50 });
    expect(result.ok, text).toBe(true);
    expect(result.entities).toEqual([
      expect.objectContaining({ entity: 'subscriptions', unchanged: 1, deleted: 1 }),
    ]);
    expect(text.split('\n')[1]).toMatch(/^subscriptions\.ndjson\s+1\s+0\s+0\s+1\s+0\s+1$/);
    expect(await listed()).toEqual([S1.id]);
    // As DELETE …?version= deletes it: the row and what cascades with it (its payment's row and
    // roles) gone, the deletion kept as the record's next version.
    expect(await rows(`select id from subscriptions where tenant_id = $1 order by id`, [tenantId])).toEqual([
      { id: S1.id },
    ]);
    expect(
      await rows(`select subscription_id from subscription_roles where tenant_id = $1`, [tenantId]),
    ).toEqual([{ subscription_id: S1.id }]);
    expect(await rows(`select id from payment_history where tenant_id = $1`, [tenantId])).toEqual([]);
    expect(await versionOf(tenantId, 'subscriptions', S2.id)).toEqual({
      version: 2,
      deleted: true,
      content_hash: '',
    });
    // Entities without a file are left alone: the partner, the publication, the payment's version.
    expect((await versionOf(tenantId, 'payments', `${S2.id}~P1`))?.deleted).toBe(false);
    expect(
      await rows(`select bp_number from business_partners where tenant_id = $1`, [tenantId]),
    ).toHaveLength(1);

    const versionsBefore = await rows(
      `select xmin::text, * from order_system_versions where tenant_id = $1 order by entity, record_key`,
      [tenantId],
    );
    const again = await runImport(db, tenantId, folder, { full: true });
    expect(again.result.ok, again.text).toBe(true);
    expect(again.result.entities).toEqual([
      expect.objectContaining({ entity: 'subscriptions', created: 0, updated: 0, unchanged: 1, deleted: 0 }),
    ]);
    expect(
      await rows(
        `select xmin::text, * from order_system_versions where tenant_id = $1 order by entity, record_key`,
        [tenantId],
      ),
    ).toEqual(versionsBefore);
    // An older upsert of the deleted record is refused, as after a DELETE.
    const stale = await runImport(db, tenantId, folderWith({ 'subscriptions.ndjson': [S1, S2] }));
    expect(stale.result.entities[0]).toMatchObject({ refused: 1, created: 0 });
  });

  it('deletes in reverse dependency order: payments, then subscriptions, then business partners', async () => {
    const { tenantId } = await tenantWithTwo('full-order');
    const other = partner('3019900002');
    const S3 = subscription('3019000003', other.bpNumber);
    expect(
      (
        await runImport(
          db,
          tenantId,
          folderWith({ 'business-partners.ndjson': [other], 'subscriptions.ndjson': [S3] }),
        )
      ).result.ok,
    ).toBe(true);
    const { result, text } = await runImport(
      db,
      tenantId,
      folderWith({
        'business-partners.ndjson': [partner('3019900001')],
        'subscriptions.ndjson': [S1, S2],
        'payments.ndjson': [],
      }),
      { full: true, maxDeletePercent: 100 },
    );
    expect(result.ok, text).toBe(true);
    expect(result.entities.map((e) => [e.entity, e.deleted])).toEqual([
      ['business-partners', 1],
      ['subscriptions', 1],
      ['payments', 1],
    ]);
    expect(await rows(`select bp_number from business_partners where tenant_id = $1`, [tenantId])).toEqual([
      { bp_number: '3019900001' },
    ]);
    expect((await versionOf(tenantId, 'payments', `${S2.id}~P1`))?.deleted).toBe(true);
  });

  it('refuses the whole import when a record to delete is still named by a row that stays, listing the key and what names it', async () => {
    const { tenantId, listed } = await tenantWithTwo('full-dangling');
    const before = await rows(
      `select entity, record_key, version::int, deleted from order_system_versions where tenant_id = $1 order by 1, 2`,
      [tenantId],
    );
    // The partners' file leaves out the partner both subscriptions (not in the import, so kept) name,
    // and changes a new one: nothing of it is written.
    const { result, text } = await runImport(
      db,
      tenantId,
      folderWith({ 'business-partners.ndjson': [partner('3019900009')] }),
      { full: true, maxDeletePercent: 100 },
    );
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ file: 'business-partners.ndjson', line: 0, key: '3019900001' }),
    ]);
    expect(text).toBe(
      'business-partners.ndjson key "3019900001" (not in the file) cannot be deleted: subscriptions "3019000001", "3019000002" still name it (roles); send the record again, or delete or change what names it first (under --full: leave it out of its own file, imported with this one)\n\nNothing was written.',
    );
    expect(
      await rows(
        `select entity, record_key, version::int, deleted from order_system_versions where tenant_id = $1 order by 1, 2`,
        [tenantId],
      ),
    ).toEqual(before);
    expect(await rows(`select bp_number from business_partners where tenant_id = $1`, [tenantId])).toEqual([
      { bp_number: '3019900001' },
    ]);
    expect(await listed()).toEqual([S1.id, S2.id]);
  });

  it('refuses an export that names a payment and leaves out its subscription, which would take the payment with it', async () => {
    const { tenantId, listed } = await tenantWithTwo('full-orphan');
    const { result, text } = await runImport(
      db,
      tenantId,
      folderWith({ 'subscriptions.ndjson': [S1], 'payments.ndjson': [payment(S2.id, 'P1')] }),
      { full: true, maxDeletePercent: 100 },
    );
    expect(result.ok, text).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ file: 'payments.ndjson', line: 0, key: `${S2.id}~P1` }),
    ]);
    expect(text).toContain('Nothing was written.');
    expect(await listed()).toEqual([S1.id, S2.id]);
    expect(await rows(`select id from payment_history where tenant_id = $1`, [tenantId])).toHaveLength(1);
  });

  it('guards against an empty or cut-off file: more than 10% of the stored records only with --allow-deletes', async () => {
    const { tenantId, listed } = await tenantWithTwo('full-guard');
    const empty = await runImport(db, tenantId, folderWith({ 'subscriptions.ndjson': [] }), { full: true });
    expect(empty.result.ok).toBe(false);
    expect(empty.text).toBe(
      'subscriptions.ndjson would delete 2 of the 2 subscriptions stored (100%) as a full sync, more than the 10% it deletes unasked: check that the file is the whole export; if it is, allow it with --allow-deletes 100% (through the API: allowDeletes=100)\n\nNothing was written.',
    );
    const half = folderWith({ 'subscriptions.ndjson': [S1] });
    const refused = await runImport(db, tenantId, half, { full: true, maxDeletePercent: 49 });
    expect(refused.result.ok).toBe(false);
    expect(refused.text).toContain('would delete 1 of the 2 subscriptions stored (50%)');
    expect(refused.text).toContain('--allow-deletes 50%');
    expect(await listed()).toEqual([S1.id, S2.id]);

    const allowed = await runImport(db, tenantId, half, { full: true, maxDeletePercent: 50 });
    expect(allowed.result.ok, allowed.text).toBe(true);
    expect(await listed()).toEqual([S1.id]);

    expect(parseAllowDeletes('25%')).toBe(25);
    expect(parseAllowDeletes('100')).toBe(100);
    expect(() => parseAllowDeletes('101%')).toThrow(/whole percent/);
    expect(() => parseAllowDeletes('ten')).toThrow(/whole percent/);
  });

  it('deletes a subscription with a subscriber’s pending change cleanly, and keeps the pending change of the one that stays', async () => {
    const { tenantId, user, listed } = await tenantWithTwo('full-pending');
    // The subscriber's changes on both subscriptions, which the order system has not answered.
    for (const s of [S1, S2])
      await db.transaction(async (tx) => {
        await updateSubscription(tx, tenantId, s.id, { details: { displayName: `Geändert ${s.id}` } });
        return recordEvent(tx, tenantId, 'offer.accepted', {
          userId: user.id,
          subscriptionId: s.id,
          orderNumber: s.orderNumber,
          offerId: 'none',
          source: 'renewal',
          amount: 0,
          currency: 'EUR',
          paymentId: null,
          change: 'extend',
          effectiveDate: null,
          experiment: null,
        });
      });
    const overlays = () =>
      rows(
        `select record_key from order_system_overlays where tenant_id = $1 and entity = 'subscriptions' order by 1`,
        [tenantId],
      );
    expect(await overlays()).toEqual([{ record_key: S1.id }, { record_key: S2.id }]);

    const { result, text } = await runImport(db, tenantId, folderWith({ 'subscriptions.ndjson': [S1] }), {
      full: true,
      maxDeletePercent: 50,
    });
    expect(result.ok, text).toBe(true);
    expect(result.entities[0]).toMatchObject({ unchanged: 1, deleted: 1 });
    expect(await listed()).toEqual([S1.id]);
    expect(await overlays()).toEqual([{ record_key: S1.id }]);
    const [kept] = await listSubscriptionsForUser(db, tenantId, user.id, { locale: 'de-DE' });
    expect(kept.displayName).toBe(`Geändert ${S1.id}`);
  });

  it('leaves the database as DELETE …?version=<stored + 1> of the same record does', async () => {
    const deletedByApi = await tenantWithTwo('full-as-delete-a');
    const pending = async (tenantId: string, userId: string) =>
      db.transaction(async (tx) => {
        await updateSubscription(tx, tenantId, S2.id, { orderStatus: 'AK' });
        return recordEvent(tx, tenantId, 'offer.accepted', {
          userId,
          subscriptionId: S2.id,
          orderNumber: S2.orderNumber,
          offerId: 'none',
          source: 'renewal',
          amount: 0,
          currency: 'EUR',
          paymentId: null,
          change: 'extend',
          effectiveDate: null,
          experiment: null,
        });
      });
    await pending(deletedByApi.tenantId, deletedByApi.user.id);
    const outcome = await db.transaction((tx) =>
      deleteRecord(tx, deletedByApi.tenantId, orderSystemEntity('subscriptions')!, S2.id, 2),
    );
    expect(outcome).toEqual({ outcome: 'deleted' });

    const deletedByImport = await tenantWithTwo('full-as-delete-b');
    await pending(deletedByImport.tenantId, deletedByImport.user.id);
    const { result } = await runImport(
      db,
      deletedByImport.tenantId,
      folderWith({ 'subscriptions.ndjson': [S1] }),
      {
        full: true,
        maxDeletePercent: 50,
      },
    );
    expect(result.ok).toBe(true);

    const state = async (tenantId: string) => ({
      subscriptions: await rows(
        `select id, order_status, details from subscriptions where tenant_id = $1 order by id`,
        [tenantId],
      ),
      roles: await rows(
        `select subscription_id, bp_number, role from subscription_roles where tenant_id = $1 order by 1`,
        [tenantId],
      ),
      payments: await rows(`select subscription_id, id from payment_history where tenant_id = $1`, [
        tenantId,
      ]),
      versions: await rows(
        `select entity, record_key, version::text, content_hash, deleted from order_system_versions where tenant_id = $1 order by 1, 2`,
        [tenantId],
      ),
      overlays: await rows(
        `select entity, record_key, kind from order_system_overlays where tenant_id = $1 order by 1, 2`,
        [tenantId],
      ),
    });
    expect(await state(deletedByImport.tenantId)).toEqual(await state(deletedByApi.tenantId));
  });
});

describe('POST /operator/v1/imports/<entity>?full=true', () => {
  const tenant = makeServerTenant({
    id: uniqueTenantId('full-api'),
    name: 'Verlag',
    hosts: [],
    defaultLocale: 'de-DE',
    features: [],
  });
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-import-full-api-'));
  let baseUrl: string;
  let close: () => Promise<void>;
  let importKey: string;
  let fullSyncKey: string;

  beforeAll(async () => {
    const { app } = createApp({
      db,
      tenants: [tenant],
      distDir: path.join(outboxDir, 'no-dist'),
      mailer: createMailer({ outboxDir }),
    });
    ({ baseUrl, close } = await listen(app));
    importKey = (
      await createOperatorKey(db, tenant.id, { name: 'sync', scopes: ['import'], now: new Date() })
    ).secret;
    fullSyncKey = (
      await createOperatorKey(db, tenant.id, { name: 'full', scopes: ['import', 'write'], now: new Date() })
    ).secret;
  });
  afterAll(async () => close?.());

  // A full sync deletes: its key has the write scope besides import.
  const upload = async (
    entity: string,
    records: unknown[],
    query = '',
    key = query.includes('full=true') ? fullSyncKey : importKey,
  ) => {
    const response = await fetch(`${baseUrl}/t/${tenant.id}/operator/v1/imports/${entity}${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      body: ndjson(records),
    });
    return { status: response.status, body: await response.json() };
  };

  it('imports as before without it (deleted 0), deletes with it, and refuses what cannot be deleted', async () => {
    expect((await upload('publications', [publication])).status).toBe(200);
    expect((await upload('business-partners', [partner('3019900001')])).body.entities[0]).toMatchObject({
      created: 1,
      deleted: 0,
    });
    expect((await upload('subscriptions', [S1, S2])).body.entities[0]).toMatchObject({
      created: 2,
      deleted: 0,
    });
    expect((await upload('subscriptions', [S1])).body.entities[0]).toMatchObject({
      unchanged: 1,
      deleted: 0,
    });

    // An upload key alone adds and changes; deleting is the write scope's, even with allowDeletes=100.
    const uploadOnly = await upload('subscriptions', [S1], '?full=true&allowDeletes=100', importKey);
    expect([uploadOnly.status, uploadOnly.body.error.code, uploadOnly.body.error.details]).toEqual([
      403,
      'insufficient_scope',
      { scope: 'write' },
    ]);
    expect(uploadOnly.body.error.message).toContain('--scope import,write');
    const guarded = await upload('subscriptions', [S1], '?full=true');
    expect(guarded.status).toBe(422);
    expect(guarded.body.error.code).toBe('import_refused');
    expect(guarded.body.error.details[0].text).toContain('allowDeletes=50');

    const full = await upload('subscriptions', [S1], '?full=true&allowDeletes=50');
    expect(full.status).toBe(200);
    expect(full.body.entities).toEqual([
      {
        entity: 'subscriptions',
        file: 'subscriptions.ndjson',
        lines: 1,
        created: 0,
        updated: 0,
        unchanged: 1,
        refused: 0,
        deleted: 1,
        refusedRecords: [],
      },
    ]);
    expect((await upload('subscriptions', [S1], '?full=true')).body.entities[0]).toMatchObject({
      unchanged: 1,
      deleted: 0,
    });

    const dangling = await upload(
      'business-partners',
      [partner('3019900002')],
      '?full=true&allowDeletes=100',
    );
    expect(dangling.status).toBe(422);
    expect(dangling.body.error.details).toEqual([
      expect.objectContaining({
        file: 'business-partners.ndjson',
        line: 0,
        key: '3019900001',
        text: expect.stringContaining('subscriptions "3019000001" still names it (roles)'),
      }),
    ]);
    expect(
      await rows(`select bp_number from business_partners where tenant_id = $1 order by 1`, [tenant.id]),
    ).toEqual([{ bp_number: '3019900001' }]);
  });

  it('refuses options it cannot read before reading the file', async () => {
    for (const query of [
      '?full=maybe',
      '?full=true&allowDeletes=101',
      '?allowDeletes=5',
      '?full=false&allowDeletes=5',
      '?ful=true',
    ]) {
      const answer = await upload('subscriptions', [S1], query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
  });
});
