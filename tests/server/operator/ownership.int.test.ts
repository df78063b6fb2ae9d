/**
 * Whose data is it (docs/going-live.md "Whose data is it", migration 023): the order system owns
 * the records it sends; a subscriber's change is the portal's pending change on top of the order
 * system's last record until the order system answers. Through the API as an order system and a
 * subscriber use it, then as a property over interleavings of changes, answers, upserts, imports
 * and deletes: after the order system's last word, the portal shows its record plus exactly the
 * changes it has not answered (and the confirmed ones it has not sent a newer record since).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
import { applyDueChanges } from '../../../server/jobs/dueChanges';
import { recordEvent } from '../../../server/events/recordEvent';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';
import {
  ORDER_SYSTEM_ENTITIES,
  orderSystemEntity,
} from '../../../server/operator/entities/orderSystemEntities';
import { readRecord } from '../../../server/operator/entities/orderSystemRecords';
import { asOrderSystem } from '../../../server/store/orderSystemOverlays';
import {
  copyLine,
  deleteRecord,
  mergeStaged,
  stageCopyLines,
  stageRecords,
} from '../../../server/store/orderSystemStore';
import { updatePartner } from '../../../server/store/accountChangeStore';
import { listBusinessPartnersForUser } from '../../../server/store/accountStore';
import { updateSubscription } from '../../../server/store/subscriptionStore';
import { createUser } from '../../../server/store/userStore';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Database } from '../../../server/db/database';
import { createKey } from '../../../cli/commands/keys';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';

const tenant: ServerTenant = makeServerTenant({
  id: uniqueTenantId('owner'),
  name: 'Verlag Eigentum',
  hosts: ['owner.test'],
  defaultLocale: 'de-DE',
  locales: ['de-DE', 'en-GB'],
  features: ['address-change', 'holiday-break'],
  publications: [{ publication: 'OWN', description: 'Owner Post', kind: 'print', frequency: 'weekly' }],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  addressChange: { timedChanges: true },
  orderAttributes: {
    attributes: [
      {
        type: 'KOSTENSTELLE',
        label: { 'de-DE': 'Kostenstelle', 'en-GB': 'Cost centre' },
        editable: true,
        creatable: true,
      },
      {
        type: 'BESTELLREF',
        label: { 'de-DE': 'Bestellreferenz', 'en-GB': 'Order reference' },
        editable: true,
        creatable: true,
      },
    ],
  },
});
const outbox = createTestOutbox('portal-owner-outbox-');
const clock = new Date();
const today = clock.toISOString().slice(0, 10);
const addDays = (days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let writer: string;

async function operator<T = any>(route: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${baseUrl}/t/${tenant.id}/operator/v1${route}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${writer}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function signIn() {
  return (await signInByMagicLink(outbox, { baseUrl, tenantId: tenant.id, email: SHARED_DEMO_EMAIL })).client;
}

/** A print subscription of the demo login and the partner it is delivered to. */
async function deliveredPartner(client: Awaited<ReturnType<typeof signIn>>) {
  const list = (await client.get<any[]>('/subscriptions')).body;
  const s = list.find((x) => x.mixType === 'PR' && x.orderStatus === 'A' && x.roles.includes('WE'))!;
  const partners = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body;
  return { s, me: partners.find((p) => p.roles.includes('WE'))! };
}

async function lastEventOf(type: string, subjectId: string): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `select id::text from account_events where tenant_id = $1 and type = $2 and subject_id = $3 order by seq desc limit 1`,
    [tenant.id, type, subjectId],
  );
  return row.id;
}

const REASON = { 'de-DE': 'Außerhalb des Zustellgebiets.', 'en-GB': 'Outside our delivery area.' };

/**
 * A change as the feed lists it: the feed shows an event once every transaction older than it has
 * ended (migration 018), in the whole PostgreSQL server, where other test files run beside this one.
 */
async function inFeed(eventId: string): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const page = (await operator<any>('/changes?status=pending&limit=500')).body;
    const change = page.changes.find((c: any) => c.event.id === eventId);
    if (change) return change;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`change ${eventId} not in the feed`);
}

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [tenant], { today: clock });
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
  writer = (await createKey({ db, tenantIds: [tenant.id] }, tenant.id, { scopes: ['read', 'write'] })).secret;
});

afterAll(async () => close?.());

describe('the trigger of migration 023', () => {
  it('watches every order-system table with the columns and key of its entity', () => {
    // Migration 027 recreates the payments' trigger with the columns it added.
    const sql = ['023_order_system_overlays.sql', '027_invoice_lines_and_paid_amount.sql']
      .map((file) => readFileSync(new URL(`../../../server/db/migrations/${file}`, import.meta.url), 'utf8'))
      .join('\n');
    for (const entity of ORDER_SYSTEM_ENTITIES) {
      const columns = entity.columns.map((c) => c.column).join(',');
      expect(sql).toContain(`('${entity.name}', '${entity.table}', '${entity.key.join(',')}', '${columns}'`);
    }
  });
});

describe('the details the order system sends with a partner', () => {
  it('refuses details of the wrong kind, and shows the subscriber only the details of their page', async () => {
    const client = await signIn();
    const { me } = await deliveredPartner(client);
    const sent = (await operator<any>(`/business-partners/${me.bpNumber}`)).body;
    const write = (version: number, details: unknown) =>
      operator(`/business-partners/${me.bpNumber}`, { method: 'PUT', body: { ...sent, version, details } });

    const wrong = await write(sent.version + 1, { listOfCommunication: 'mail', status: 'gesperrt' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.map((p: { field: string }) => p.field)).toEqual([
      '/details/listOfCommunication',
      '/details/status',
    ]);

    // A field of the order system's own (a rating, a note of customer service) is kept, not shown.
    const kept = await write(sent.version + 1, {
      ...sent.details,
      info: 'Hinterhaus',
      creditRating: 'C',
    });
    expect(kept.status).toBe(200);
    expect((await operator<any>(`/business-partners/${me.bpNumber}`)).body.details.creditRating).toBe('C');
    const own = (await client.get<any[]>('/business-partners')).body.find((p) => p.bpNumber === me.bpNumber);
    expect(own.info).toBe('Hinterhaus');
    expect(own).not.toHaveProperty('creditRating');
    // The data export still copies everything the portal keeps about the person (GDPR Art. 15(3)).
    const [user] = await db.query<{ id: string }>(
      `select id from users where tenant_id = $1 and email = $2`,
      [tenant.id, SHARED_DEMO_EMAIL],
    );
    const exported = (await listBusinessPartnersForUser(db, tenant.id, user.id, { allDetails: true })).find(
      (p) => p.bpNumber === me.bpNumber,
    )!;
    expect(exported).toMatchObject({ info: 'Hinterhaus', creditRating: 'C' });
    expect((await write(sent.version + 2, sent.details)).status).toBe(200);
  });
});

describe('a subscriber changes an address the order system owns', () => {
  it('shows the order system’s address again at once when the change is rejected, and after a full sync too', async () => {
    const client = await signIn();
    const { s, me } = await deliveredPartner(client);
    const sent = await operator(`/business-partners/${me.bpNumber}`);
    expect(sent.status).toBe(200);
    const changed = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      street: 'Karl-Liebknecht-Straße',
      streetNumber: '9',
      zipcode: '04107',
      city: 'Leipzig',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.address.city).toBe('Leipzig');
    const eventId = await lastEventOf('address.changed', me.bpNumber);

    // A full sync before the answer keeps the pending change on top of the order system's record.
    const resent = await operator(`/business-partners/${me.bpNumber}`, { method: 'PUT', body: sent.body });
    expect(resent.body.result).toBe('unchanged');
    const pending = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body;
    expect(pending.find((p) => p.bpNumber === me.bpNumber).address.city).toBe('Leipzig');

    // The mails so far (the change's confirmation among them) sent, so the rejection's is the new one.
    const mailed = new Set((await outbox.mails(SHARED_DEMO_EMAIL, tenant.id)).map((m) => m.file));
    const rejected = await operator(`/changes/${eventId}/acknowledgement`, {
      method: 'POST',
      body: { status: 'rejected', reason: REASON, locale: 'de-DE' },
    });
    expect(rejected.status).toBe(201);
    const after = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body;
    expect(after.find((p) => p.bpNumber === me.bpNumber).address).toEqual(me.address);
    const [mail] = (await outbox.mails(SHARED_DEMO_EMAIL, tenant.id)).filter((m) => !mailed.has(m.file));
    expect(mail.text).toContain('Außerhalb des Zustellgebiets.');
    expect(mail.text).toContain('wieder die bisherigen Angaben');

    // The nightly full sync sends the same record again: it stays the order system's.
    const again = await operator(`/business-partners/${me.bpNumber}`, { method: 'PUT', body: sent.body });
    expect(again.body.result).toBe('unchanged');
    const synced = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body;
    expect(synced.find((p) => p.bpNumber === me.bpNumber).address).toEqual(me.address);
  });

  it('does not say the account shows the previous details again when the order system has since sent the change’s values itself', async () => {
    const client = await signIn();
    const { s, me } = await deliveredPartner(client);
    const sent = (await operator<any>(`/business-partners/${me.bpNumber}`)).body;
    try {
      const changed = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
        ...me.address,
        zipcode: '01067',
        city: 'Dresden',
      });
      expect(changed.status).toBe(200);
      const eventId = await lastEventOf('address.changed', me.bpNumber);
      // Its own staff took the move in before the answer went out: a newer record with the new town.
      const newer = await operator(`/business-partners/${me.bpNumber}`, {
        method: 'PUT',
        body: { ...sent, version: sent.version + 1, zipcode: '01067', city: 'Dresden' },
      });
      expect(newer.status).toBe(200);
      // The mails so far (the change's confirmation among them) sent, so the rejection's is the new one.
      const mailed = new Set((await outbox.mails(SHARED_DEMO_EMAIL, tenant.id)).map((m) => m.file));
      const rejected = await operator<any>(`/changes/${eventId}/acknowledgement`, {
        method: 'POST',
        body: { status: 'rejected', reason: REASON, locale: 'de-DE' },
      });
      expect(rejected.status).toBe(201);
      expect(rejected.body.undone).toBe(false);
      const after = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body;
      expect(after.find((p) => p.bpNumber === me.bpNumber).address.city).toBe('Dresden');
      const told = (await outbox.mails(SHARED_DEMO_EMAIL, tenant.id)).filter((m) => !mailed.has(m.file));
      expect(told).toHaveLength(1);
      expect(told[0].text).toContain('Außerhalb des Zustellgebiets.');
      expect(told[0].text).not.toContain('wieder die bisherigen Angaben');
    } finally {
      // The order system's record as it was, for the tests after this one.
      const restored = await operator(`/business-partners/${me.bpNumber}`, {
        method: 'PUT',
        body: { ...sent, version: sent.version + 2 },
      });
      expect(restored.status).toBe(200);
    }
  });

  it('shows the order system’s address again when several changes are rejected at once, and answers a repeat as stored', async () => {
    const client = await signIn();
    const { s, me } = await deliveredPartner(client);
    const sent = await operator(`/business-partners/${me.bpNumber}`);
    const eventIds: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const changed = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
        ...me.address,
        street: `Parallelweg ${i}`,
        city: `Parallelstadt ${i}`,
      });
      expect(changed.status).toBe(200);
      eventIds.push(await lastEventOf('address.changed', me.bpNumber));
    }
    const reject = (eventId: string) =>
      operator(`/changes/${eventId}/acknowledgement`, {
        method: 'POST',
        body: { status: 'rejected', reason: REASON, locale: 'de-DE' },
      });
    // Each rejection twice, all at once: every change taken off, each decision once.
    const answers = await Promise.all([...eventIds, ...eventIds].map(reject));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(5).fill(200), ...Array(5).fill(201)]);
    const after = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body;
    expect(after.find((p) => p.bpNumber === me.bpNumber).address).toEqual(me.address);
    expect((await operator(`/business-partners/${me.bpNumber}`)).body).toEqual(sent.body);
  });

  it('keeps a later move whole when an earlier change of its street is rejected: never an address nobody sent', async () => {
    const client = await signIn();
    const { s, me } = await deliveredPartner(client);
    const change = async (address: Record<string, unknown>) => {
      const changed = await client.post<any>(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
        ...me.address,
        ...address,
      });
      expect(changed.status).toBe(200);
      return lastEventOf('address.changed', me.bpNumber);
    };
    const reject = (eventId: string) =>
      operator(`/changes/${eventId}/acknowledgement`, {
        method: 'POST',
        body: { status: 'rejected', reason: REASON, locale: 'de-DE' },
      });
    const shown = async () =>
      (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find(
        (p) => p.bpNumber === me.bpNumber,
      ).address;
    // The street first; then a move to another city on the same street (only the city differs).
    const street = await change({ street: 'Gohliser Straße', streetNumber: '3' });
    const move = await change({
      street: 'Gohliser Straße',
      streetNumber: '3',
      zipcode: '01067',
      city: 'Dresden',
    });
    expect((await reject(street)).status).toBe(201);
    expect(await shown()).toMatchObject({ street: 'Gohliser Straße', streetNumber: '3', city: 'Dresden' });
    expect((await reject(move)).status).toBe(201);
    expect(await shown()).toEqual(me.address);
  });

  it('lets a rejection and the order system’s write of the same record wait for each other, never a 5xx', async () => {
    const client = await signIn();
    const { s, me } = await deliveredPartner(client);
    const record = (await operator<any>(`/business-partners/${me.bpNumber}`)).body;
    for (let round = 1; round <= 8; round++) {
      const changed = await client.post(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
        ...me.address,
        city: `Runde ${round}`,
      });
      expect(changed.status).toBe(200);
      const eventId = await lastEventOf('address.changed', me.bpNumber);
      const answers = await Promise.all([
        operator(`/business-partners/${me.bpNumber}`, {
          method: 'PUT',
          body: { ...record, version: Number(record.version) + round, phoneNumber: `+49 30 ${round}` },
        }),
        operator(`/changes/${eventId}/acknowledgement`, {
          method: 'POST',
          body: { status: 'rejected', reason: REASON, locale: 'de-DE' },
        }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 201]);
    }
    // The order system's newest record, with no change of the subscriber's on top.
    const after = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body;
    expect(after.find((p) => p.bpNumber === me.bpNumber).address).toEqual(me.address);
  });

  it('keeps a confirmed change until the order system sends a newer record, which then is the truth', async () => {
    const client = await signIn();
    const { s, me } = await deliveredPartner(client);
    const sent = (await operator(`/business-partners/${me.bpNumber}`)).body;
    await client.post(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      city: 'Halle',
    });
    const eventId = await lastEventOf('address.changed', me.bpNumber);
    expect(
      (
        await operator(`/changes/${eventId}/acknowledgement`, {
          method: 'POST',
          body: { status: 'confirmed' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await operator(`/business-partners/${me.bpNumber}`, { method: 'PUT', body: sent })).body.result,
    ).toBe('unchanged');
    const city = async () =>
      (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find(
        (p) => p.bpNumber === me.bpNumber,
      ).address.city;
    expect(await city()).toBe('Halle');
    const newer = { ...sent, version: Number(sent.version) + 1, city: 'Halle (Saale)' };
    expect((await operator(`/business-partners/${me.bpNumber}`, { method: 'PUT', body: newer })).status).toBe(
      200,
    );
    expect(await city()).toBe('Halle (Saale)');
  });

  it('plans no holiday break the order system’s newer record went without, and lets the next one be booked', async () => {
    const client = await signIn();
    const { s } = await deliveredPartner(client);
    const sent = (await operator(`/subscriptions/${s.id}`)).body;
    const book = (from: number, to: number) =>
      client.post<any>(`/subscriptions/${s.id}/holiday-service`, {
        service: 'break',
        dateFrom: addDays(from),
        dateTo: addDays(to),
      });
    const planned = async () =>
      (await client.get<any>(`/subscriptions/${s.id}/holiday-service`)).body.planned;
    expect((await book(20, 30)).status).toBe(200);
    expect(await planned()).toMatchObject({ type: 'break', dateFrom: addDays(20) });
    const eventId = await lastEventOf('holiday_service.set', s.id);
    await operator(`/changes/${eventId}/acknowledgement`, { method: 'POST', body: { status: 'confirmed' } });
    // The order system's newer record, without the break (it was called off on the phone, say).
    const newer = { ...sent, version: Number(sent.version) + 1 };
    expect((await operator(`/subscriptions/${s.id}`, { method: 'PUT', body: newer })).status).toBe(200);
    expect(
      (await client.get<any>(`/subscriptions/${s.id}`)).body.activeHolidayServiceType ?? null,
    ).toBeNull();
    expect(await planned()).toBeNull();
    // Eight days: a weekly title has an issue in any of them, whatever today is.
    const next = await book(40, 47);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(await planned()).toMatchObject({ type: 'break', dateFrom: addDays(40) });
  });

  it('drops a dated change that was rejected before its day, and takes back one applied on its day', async () => {
    const client = await signIn();
    const { s, me } = await deliveredPartner(client);
    await client.post(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      city: 'Dresden',
      validFrom: addDays(5),
    });
    const early = await lastEventOf('address.changed', me.bpNumber);
    await client.post(`/subscriptions/${s.id}/business-partners/${me.bpNumber}`, {
      ...me.address,
      city: 'Chemnitz',
      validFrom: addDays(9),
    });
    const later = await lastEventOf('address.changed', me.bpNumber);
    // The feed says what the order system applies on the day: the whole place to live, not only the city.
    const feed = await inFeed(later);
    expect(feed.event.data).toMatchObject({
      validFrom: addDays(9),
      fields: ['city'],
      values: { city: 'Chemnitz', zipcode: me.address.zipcode, countryCode: me.address.countryCode },
    });
    await operator(`/changes/${early}/acknowledgement`, {
      method: 'POST',
      body: { status: 'rejected', reason: REASON },
    });
    const listed = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find(
      (p) => p.bpNumber === me.bpNumber,
    );
    expect(listed.futureAddresses.map((f: any) => f.validFrom)).toEqual([addDays(9)]);

    await applyDueChanges(db, addDays(9));
    const moved = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find(
      (p) => p.bpNumber === me.bpNumber,
    );
    expect(moved.address.city).toBe('Chemnitz');
    await operator(`/changes/${later}/acknowledgement`, {
      method: 'POST',
      body: { status: 'rejected', reason: REASON },
    });
    const back = (await client.get<any[]>(`/subscriptions/${s.id}/business-partners`)).body.find(
      (p) => p.bpNumber === me.bpNumber,
    );
    expect(back.address.city).toBe(me.address.city);
  });

  it('writes a re-sent record again when the row no longer shows it', async () => {
    const client = await signIn();
    const { me } = await deliveredPartner(client);
    const sent = (await operator(`/business-partners/${me.bpNumber}`)).body;
    // A row changed behind the order system's back with nothing pending on it (an old deployment's).
    await db.transaction((tx) =>
      asOrderSystem(tx, () =>
        tx.query(`update business_partners set city = 'Irgendwo' where tenant_id = $1 and bp_number = $2`, [
          tenant.id,
          me.bpNumber,
        ]),
      ),
    );
    const again = await operator(`/business-partners/${me.bpNumber}`, { method: 'PUT', body: sent });
    expect(again.body.result).toBe('updated');
    expect((await operator(`/business-partners/${me.bpNumber}`)).body.city).toBe(sent.city);
  });
});

// --- the property --------------------------------------------------------------------------------

type Fields = { city: string; street: string; addressLine1?: string };

type Step =
  | { kind: 'change'; fields: Partial<Fields> }
  | { kind: 'answer'; pick: number; status: 'confirmed' | 'rejected' }
  | { kind: 'upsert' | 'import'; age: 'older' | 'equal' | 'newer'; fields: Fields }
  | { kind: 'resend' }
  | { kind: 'delete' }
  | { kind: 'remove' };

const value = fc.constantFrom('A', 'B', 'C');
const fieldsArb: fc.Arbitrary<Fields> = fc.record(
  { city: value, street: value, addressLine1: value },
  { requiredKeys: ['city', 'street'] },
);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('change' as const),
      fields: fc.record({ city: value, street: value, addressLine1: value }, { requiredKeys: [] }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      pick: fc.nat(20),
      status: fc.constantFrom('confirmed' as const, 'rejected' as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('upsert' as const, 'import' as const),
      age: fc.constantFrom('older' as const, 'equal' as const, 'newer' as const),
      fields: fieldsArb,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'resend' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'delete' as const }) },
  // The subscriber's change that removes the row (a licence deleted by its manager).
  { weight: 1, arbitrary: fc.constant({ kind: 'remove' as const }) },
);

interface ModelChange {
  eventId: string;
  fields: Partial<Fields>;
  /** The change removed the row. */
  removes?: true;
  status: 'pending' | 'confirmed' | 'rejected';
  confirmedAt?: number;
}

describe('a subscriber changes one order attribute', () => {
  /** A subscription the demo login ordered, as the order system sends it, with the attributes given. */
  async function orderedWith(attributes: Array<{ type: string; value: string }>) {
    const client = await signIn();
    const list = (await client.get<any[]>('/subscriptions')).body;
    const s = list.find((x) => x.roles.includes('AG') && x.orderStatus === 'A')!;
    const sent = (await operator<any>(`/subscriptions/${s.id}`)).body;
    const record = {
      ...sent,
      version: Number(sent.version) + 1,
      details: { ...sent.details, orderAttributes: attributes },
    };
    expect((await operator(`/subscriptions/${s.id}`, { method: 'PUT', body: record })).status).toBe(200);
    return { client, s, record };
  }
  const attributesOf = async (client: Awaited<ReturnType<typeof signIn>>, id: string) =>
    (await client.get<any>(`/subscriptions/${id}`)).body.orderAttributes;
  const reject = (eventId: string) =>
    operator(`/changes/${eventId}/acknowledgement`, {
      method: 'POST',
      body: { status: 'rejected', reason: REASON, locale: 'de-DE' },
    });

  it('shows the attributes the order system sends meanwhile, with only the changed one on top', async () => {
    const { client, s, record } = await orderedWith([{ type: 'BESTELLREF', value: 'OS-1' }]);
    expect(
      (await client.post(`/subscriptions/${s.id}/attributes`, { type: 'KOSTENSTELLE', value: 'K1' })).status,
    ).toBe(200);
    const eventId = await lastEventOf('order_attribute.changed', s.id);

    // A newer record changes the order system's attribute and adds one the subscriber cannot edit.
    const newer = {
      ...record,
      version: Number(record.version) + 1,
      details: {
        ...record.details,
        orderAttributes: [
          { type: 'BESTELLREF', value: 'OS-2' },
          { type: 'USTID', value: 'DE123456789' },
        ],
      },
    };
    expect((await operator(`/subscriptions/${s.id}`, { method: 'PUT', body: newer })).status).toBe(200);
    expect(await attributesOf(client, s.id)).toEqual([
      { type: 'BESTELLREF', value: 'OS-2' },
      { type: 'USTID', value: 'DE123456789' },
      { type: 'KOSTENSTELLE', value: 'K1' },
    ]);

    // Rejected: the order system's newest attributes, without the change.
    expect((await reject(eventId)).status).toBe(201);
    expect(await attributesOf(client, s.id)).toEqual(newer.details.orderAttributes);
    expect((await operator<any>(`/subscriptions/${s.id}`)).body.details.orderAttributes).toEqual(
      newer.details.orderAttributes,
    );
  });

  it('takes back only the attribute of the rejected change, not one a later change set', async () => {
    const { client, s } = await orderedWith([{ type: 'BESTELLREF', value: 'OS-1' }]);
    await client.post(`/subscriptions/${s.id}/attributes`, { type: 'KOSTENSTELLE', value: 'K2' });
    const first = await lastEventOf('order_attribute.changed', s.id);
    await client.post(`/subscriptions/${s.id}/attributes`, { type: 'BESTELLREF', value: 'MINE' });
    expect((await reject(first)).status).toBe(201);
    expect(await attributesOf(client, s.id)).toEqual([{ type: 'BESTELLREF', value: 'MINE' }]);
  });
});

describe('a change and a later one that removes the row', () => {
  const reject = (eventId: string) =>
    operator(`/changes/${eventId}/acknowledgement`, {
      method: 'POST',
      body: { status: 'rejected', reason: REASON, locale: 'de-DE' },
    });

  /**
   * A licence the order system sends (active), and its licence manager's changes as
   * server/multi-user-licenses/commands/licenseUsers.ts writes them: the row's write and its event
   * in one transaction.
   */
  async function sentLicence(name: string) {
    const [s] = await db.query<{ id: string; order_number: string }>(
      `select id, order_number from subscriptions where tenant_id = $1 order by id limit 1`,
      [tenant.id],
    );
    const [partner] = await db.query<{ bp_number: string }>(
      `select bp_number from business_partners where tenant_id = $1 order by bp_number limit 1`,
      [tenant.id],
    );
    const email = `licence-${name}@owner.example`;
    const path = `/licences/${encodeURIComponent(`${s.id}~${s.order_number}~${email}`)}`;
    const object = { version: 1, subscriptionId: s.id, orderNumber: s.order_number, maxActiveLicenses: 5 };
    expect([200, 201]).toContain(
      (await operator(`/licence-objects/${s.id}~${s.order_number}`, { method: 'PUT', body: object })).status,
    );
    const record = {
      version: 1,
      subscriptionId: s.id,
      orderNumber: s.order_number,
      email,
      businessPartner: { bpNumber: partner.bp_number },
      isActive: true,
    };
    expect((await operator(path, { method: 'PUT', body: record })).body).toMatchObject({ result: 'created' });
    const user = await createUser(db, tenant.id, { email: `manager-${name}@owner.example` });
    const where = `tenant_id = $1 and subscription_id = $2 and order_number = $3 and email = $4`;
    const params = [tenant.id, s.id, s.order_number, email];
    const change = (type: 'license.deactivated' | 'license.deleted') =>
      db.transaction(async (tx) => {
        await tx.query(
          type === 'license.deleted'
            ? `delete from licenses where ${where}`
            : `update licenses set is_active = false where ${where}`,
          params,
        );
        return recordEvent(tx, tenant.id, type, {
          userId: user.id,
          subscriptionId: s.id,
          orderNumber: s.order_number,
          licenseId: email,
          email,
        });
      });
    const rows = () =>
      db.query<{ is_active: boolean }>(`select is_active from licenses where ${where}`, params);
    return { path, record, change, rows };
  }

  it.each([
    ['the change first', [0, 1]],
    ['the removal first', [1, 0]],
  ])('shows the order system’s row after both are rejected, %s', async (_order, rejectionOrder) => {
    const { path, change, rows } = await sentLicence(`both-${rejectionOrder.join('')}`);
    const sent = (await operator<any>(path)).body;
    expect(sent.isActive).toBe(true);
    const events = [await change('license.deactivated'), await change('license.deleted')];
    for (const index of rejectionOrder) expect((await reject(events[index])).status).toBe(201);

    expect(await rows()).toEqual([{ is_active: true }]);
    expect((await operator<any>(path)).body).toEqual(sent);
  });

  it('answers an order system’s newer record of a row a pending removal took off as updated, and keeps it off', async () => {
    const { path, record, change, rows } = await sentLicence('resent');
    const removal = await change('license.deleted');

    const newer = await operator(path, { method: 'PUT', body: { ...record, version: 2, isActive: false } });
    expect(newer.status).toBe(200);
    expect(newer.body.result).toBe('updated');
    expect(await rows()).toEqual([]);

    expect((await reject(removal)).status).toBe(201);
    expect(await rows()).toEqual([{ is_active: false }]);
  });
});

describe('a subscriber’s change rewords a subscription', () => {
  it('shows a word the order system changes meanwhile in another language, and its newest words after a rejection', async () => {
    const client = await signIn();
    const s = (await client.get<any[]>('/subscriptions')).body.find(
      (x) => x.roles.includes('AG') && x.orderStatus === 'A',
    )!;
    const sent = (await operator<any>(`/subscriptions/${s.id}`)).body;
    const renewal = { expiryIssueNr: '12/2026', expiryDesc: 'endet mit Ausgabe 12/2026' };
    const record = {
      ...sent,
      version: Number(sent.version) + 1,
      details: {
        ...sent.details,
        displayName: 'Owner Post – Druck',
        renewal,
        translations: {
          'en-GB': { displayName: 'Owner Post – print', renewal: { expiryDesc: 'ends with issue 12/2026' } },
        },
      },
    };
    expect((await operator(`/subscriptions/${s.id}`, { method: 'PUT', body: record })).status).toBe(200);

    // The portal's write of a renewal (server/store/subscriptionStore.ts saveLifecycle): its new
    // renewal, without the words of the old one in any language.
    const user = await createUser(db, tenant.id, { email: `reword-${s.id}@owner.example` });
    const eventId = await db.transaction(async (tx) => {
      await updateSubscription(tx, tenant.id, s.id, {
        details: { renewal: { expiryIssueNr: '24/2026', expiryDesc: null } as never },
      });
      return recordEvent(tx, tenant.id, 'offer.accepted', {
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
    const english = async () =>
      (await client.get<any>(`/subscriptions/${s.id}`, { 'accept-language': 'en-GB' })).body.displayName;
    expect(await english()).toBe('Owner Post – print');

    // The order system renames the product in English while the change is pending.
    const newer = {
      ...record,
      version: record.version + 1,
      details: {
        ...record.details,
        translations: {
          'en-GB': {
            displayName: 'Owner Post – printed edition',
            renewal: { expiryDesc: 'ends with issue 12/2026' },
          },
        },
      },
    };
    expect((await operator(`/subscriptions/${s.id}`, { method: 'PUT', body: newer })).status).toBe(200);
    expect(await english()).toBe('Owner Post – printed edition');
    const shown = (await operator<any>(`/subscriptions/${s.id}`)).body.details;
    expect(shown.renewal).toEqual({ expiryIssueNr: '24/2026', expiryDesc: null });
    expect(shown.translations).toEqual({ 'en-GB': { displayName: 'Owner Post – printed edition' } });

    // Rejected: the order system's newest record, words and all.
    expect(
      (
        await operator(`/changes/${eventId}/acknowledgement`, {
          method: 'POST',
          body: { status: 'rejected', reason: REASON, locale: 'de-DE' },
        })
      ).status,
    ).toBe(201);
    const after = (await operator<any>(`/subscriptions/${s.id}`)).body.details;
    expect(after.renewal).toEqual(renewal);
    expect(after.translations).toEqual(newer.details.translations);
  });

  it('turns a change recorded before migration 040, of all the words at once, into one path per word', async () => {
    const sql = readFileSync(
      path.join(__dirname, '../../../server/db/migrations/040_translation_paths.sql'),
      'utf8',
    );
    const conversion = sql.slice(sql.lastIndexOf('update order_system_overlays'));
    const whole = (translations: unknown) => [translations];
    const [{ id }] = await db.query<{ id: string }>(
      `insert into order_system_overlays (tenant_id, entity, record_key, kind, fields, base)
       values ($1, 'subscriptions', 'converted', 'update', $2, $3) returning id::text`,
      [
        tenant.id,
        {
          'details.renewal': [{ expiryIssueNr: '24/2026' }],
          'details.translations': whole({
            'en-GB': { displayName: 'Print' },
            'de-DE': { displayName: 'Druck' },
          }),
        },
        {
          'details.renewal': [{ expiryIssueNr: '12/2026' }],
          'details.translations': whole({
            'en-GB': { displayName: 'Print', renewal: { expiryDesc: 'ends 12' } },
          }),
        },
      ],
    );
    await db.query(conversion);
    const [row] = await db.query<{ fields: unknown; base: unknown }>(
      `select fields, base from order_system_overlays where tenant_id = $1 and id = $2`,
      [tenant.id, id],
    );
    expect(row).toEqual({
      fields: {
        'details.renewal': [{ expiryIssueNr: '24/2026' }],
        'details.translations/en-GB/renewal': [],
        'details.translations/de-DE/displayName': ['Druck'],
      },
      base: {
        'details.renewal': [{ expiryIssueNr: '12/2026' }],
        'details.translations/en-GB/renewal': [{ expiryDesc: 'ends 12' }],
        'details.translations/de-DE/displayName': [],
      },
    });
    await db.query(`delete from order_system_overlays where tenant_id = $1 and id = $2`, [tenant.id, id]);
  });
});

describe('the ownership property', () => {
  it('after the order system’s last word, shows its record plus exactly the changes it has not answered', async () => {
    const entity = orderSystemEntity('business-partners')!;
    const user = await createUser(db, tenant.id, { email: 'property@owner.example' });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fieldsArb,
        fc.array(stepArb, { minLength: 1, maxLength: 20 }),
        async (first, steps) => {
          run += 1;
          const bpNumber = `77${String(run).padStart(8, '0')}`;
          const recordOf = (version: number, fields: Fields) => ({
            version,
            bpNumber,
            lastName1: 'Eigen',
            city: fields.city,
            street: fields.street,
            details: fields.addressLine1 === undefined ? {} : { addressLine1: fields.addressLine1 },
          });
          const write = async (record: Record<string, unknown>, via: 'upsert' | 'import') => {
            const read = readRecord(entity, record);
            if (!read.ok) throw new Error(JSON.stringify(read.problems));
            return db.transaction(async (tx) => {
              if (via === 'import') await stageCopyLines(tx, [copyLine(read.staged)]);
              else await stageRecords(tx, [read.staged]);
              return mergeStaged(tx, tenant.id, entity);
            });
          };
          // The model: the order system's last record, its version, and the subscriber's changes.
          let version = 10;
          let record: Fields | null = first;
          let deletedAt: number | null = null;
          const changes: ModelChange[] = [];
          await write(recordOf(version, first), 'upsert');

          const shown = (): Partial<Fields> | null => {
            if (!record) return null;
            const view: Partial<Fields> = { ...record };
            for (const change of changes) {
              if (change.status === 'rejected') continue;
              if (change.removes) return null;
              Object.assign(view, change.fields);
            }
            return view;
          };

          for (const step of steps) {
            if (step.kind === 'change') {
              const view = shown();
              if (!view) continue;
              // Only what differs from what the subscriber sees is a change (the flows write just that).
              const fields = Object.fromEntries(
                Object.entries(step.fields).filter(([k, v]) => view[k as keyof Fields] !== v),
              ) as Partial<Fields>;
              const eventId = await db.transaction(async (tx) => {
                const { addressLine1, ...columns } = fields;
                await updatePartner(tx, tenant.id, bpNumber, {
                  ...columns,
                  ...(addressLine1 !== undefined ? { details: { addressLine1 } } : {}),
                });
                return recordEvent(tx, tenant.id, 'address.changed', {
                  userId: user.id,
                  bpNumber,
                  subscriptionId: 'none',
                  validFrom: null,
                  fields: Object.keys(fields),
                });
              });
              changes.push({ eventId, fields, status: 'pending' });
            } else if (step.kind === 'answer') {
              const open = changes.filter((c) => c.status === 'pending');
              if (open.length === 0) continue;
              const change = open[step.pick % open.length];
              await acknowledgeChange(
                { db, now: () => clock, mailFrom: 'portal@owner.test' },
                tenant,
                '00000000-0000-4000-8000-000000000000',
                change.eventId,
                step.status === 'rejected' ? { status: 'rejected', reason: REASON } : { status: 'confirmed' },
              );
              change.status = step.status;
              if (step.status === 'confirmed') change.confirmedAt = version;
              // Nothing of a deleted record is left to change.
              if (!record) change.status = 'rejected';
            } else if (step.kind === 'upsert' || step.kind === 'import') {
              const stored = deletedAt ?? version;
              const next = step.age === 'older' ? stored - 1 : step.age === 'equal' ? stored : stored + 1;
              const same = record !== null && JSON.stringify(record) === JSON.stringify(step.fields);
              const accepted =
                deletedAt !== null ? next > deletedAt : next > version || (next === version && same);
              const counts = await write(recordOf(next, step.fields), step.kind);
              expect(counts.refused).toBe(accepted ? 0 : 1);
              if (accepted && !(next === version && same && deletedAt === null)) {
                for (const change of changes)
                  if (change.status === 'confirmed' && next > change.confirmedAt!) change.status = 'rejected';
                if (deletedAt !== null) for (const change of changes) change.status = 'rejected';
                record = step.fields;
                version = next;
                deletedAt = null;
              }
            } else if (step.kind === 'remove') {
              if (!shown()) continue;
              const eventId = await db.transaction(async (tx) => {
                await tx.query(`delete from business_partners where tenant_id = $1 and bp_number = $2`, [
                  tenant.id,
                  bpNumber,
                ]);
                return recordEvent(tx, tenant.id, 'address.changed', {
                  userId: user.id,
                  bpNumber,
                  subscriptionId: 'none',
                  validFrom: null,
                  fields: [],
                });
              });
              changes.push({ eventId, fields: {}, removes: true, status: 'pending' });
            } else if (step.kind === 'resend') {
              if (!record) continue;
              const counts = await write(recordOf(version, record), 'upsert');
              expect(counts.refused).toBe(0);
            } else {
              if (!record) continue;
              const at = version + 1;
              const outcome = await db.transaction((tx) => deleteRecord(tx, tenant.id, entity, bpNumber, at));
              expect(outcome.outcome).toBe('deleted');
              record = null;
              deletedAt = at;
              for (const change of changes) change.status = 'rejected';
            }
          }

          const [row] = await db.query<{ city: string; street: string; line: string | null }>(
            `select city, street, details->>'addressLine1' as line from business_partners where tenant_id = $1 and bp_number = $2`,
            [tenant.id, bpNumber],
          );
          const expected = shown();
          if (!expected) expect(row).toBeUndefined();
          else
            expect({ city: row.city, street: row.street, addressLine1: row.line ?? undefined }).toEqual({
              city: expected.city,
              street: expected.street,
              addressLine1: expected.addressLine1,
            });
        },
      ),
      {
        numRuns: 200,
        seed: 20261128,
        endOnFailure: true,
        // A change, then one that removes the row, both rejected with the first one first.
        examples: [
          [
            { city: 'A', street: 'A' },
            [
              { kind: 'change', fields: { city: 'B' } },
              { kind: 'remove' },
              { kind: 'answer', pick: 0, status: 'rejected' },
              { kind: 'answer', pick: 0, status: 'rejected' },
            ],
          ],
        ],
      },
    );
  }, 120_000);
});
