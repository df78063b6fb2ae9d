/**
 * A rejected change leaves nothing of itself in the portal's own tables (server/store/changeRejectionStore.ts,
 * FeatureManifest.rejections): the holiday service it planned is not planned, the opt-in it asked for
 * is not pending and its link confirms nothing, the offer's acceptance failed, the cancellation is
 * not on record. A confirmed change keeps them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../server/seed';
import { recordEvent } from '../../../server/events/recordEvent';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';
import { createUser } from '../../../server/store/userStore';
import type { Database } from '../../../server/db/database';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { makeServerTenant } from '../../support/builders';

const tenant = makeServerTenant({
  id: uniqueTenantId('own-rows'),
  name: 'Verlag',
  hosts: [],
  defaultLocale: 'de-DE',
  locales: ['de-DE', 'en-GB'],
  features: ['holiday-break', 'opt-ins', 'cancellation'],
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
});
const REASON = { 'de-DE': 'Abgelehnt.', 'en-GB': 'Rejected.' };
let db: Database;
let userId: string;
let subscriptionId: string;
let bpNumber: string;
let offerId: string;

const reject = (eventId: string) =>
  acknowledgeChange(
    { db, now: () => new Date(), mailFrom: 'portal@own-rows.test' },
    tenant,
    '00000000-0000-4000-8000-000000000000',
    eventId,
    { status: 'rejected', reason: REASON },
  );
const one = async <T>(sql: string, params: unknown[]) => (await db.query<T>(sql, params))[0];
/**
 * A break of the subscription from one day to another, planned as the holiday service's POST plans
 * it: the row and its event in one transaction.
 */
const planBreak = (dateFrom: string, dateTo: string) =>
  db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into holiday_services (tenant_id, subscription_id, user_id, type, date_from, date_to)
       values ($1, $2, $3, 'break', $4, $5) returning id`,
      [tenant.id, subscriptionId, userId, dateFrom, dateTo],
    );
    const eventId = await recordEvent(tx, tenant.id, 'holiday_service.set', {
      userId,
      subscriptionId,
      orderNumber: '4000000001',
      service: 'break',
      dateFrom,
      dateTo,
      issueNumberFrom: null,
      issueNumberTo: null,
    });
    return { id: row.id, eventId };
  });
/** The subscriber cancels a planned service, as the holiday service's cancel does. */
const cancelBreak = (id: string) =>
  db.transaction(async (tx) => {
    await tx.query(
      `update holiday_services set status = 'cancelled', cancelled_at = now() where tenant_id = $1 and id = $2`,
      [tenant.id, id],
    );
    return recordEvent(tx, tenant.id, 'holiday_service.cancelled', {
      userId,
      subscriptionId,
      orderNumber: '4000000001',
      service: 'break',
    });
  });
const holidayRows = () =>
  db.query<{ id: string; status: string }>(
    `select id, status from holiday_services where tenant_id = $1 and subscription_id = $2 order by date_from`,
    [tenant.id, subscriptionId],
  );
const clearHolidayRows = () =>
  db.query(`delete from holiday_services where tenant_id = $1 and subscription_id = $2`, [
    tenant.id,
    subscriptionId,
  ]);

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [tenant]);
  userId = (await createUser(db, tenant.id, { email: 'rows@own.example' })).id;
  ({ id: subscriptionId } = await one<{ id: string }>(
    `select id from subscriptions where tenant_id = $1 order by id limit 1`,
    [tenant.id],
  ));
  ({ bp_number: bpNumber } = await one<{ bp_number: string }>(
    `select bp_number::text from opt_ins where tenant_id = $1 order by bp_number limit 1`,
    [tenant.id],
  ));
  ({ id: offerId } = await one<{ id: string }>(`select id from offers where tenant_id = $1 limit 1`, [
    tenant.id,
  ]));
  await clearHolidayRows();
});

describe('a change the order system rejected', () => {
  it('leaves no planned holiday service, so the next one can be booked', async () => {
    const { eventId } = await planBreak('2099-03-02', '2099-03-16');
    await reject(eventId);
    const planned = await db.query(
      `select 1 from holiday_services where tenant_id = $1 and subscription_id = $2 and status = 'planned'`,
      [tenant.id, subscriptionId],
    );
    expect(planned).toHaveLength(0);
  });

  it('plans again the service whose cancellation it rejected, not one a later rejection took off', async () => {
    await clearHolidayRows();
    const first = await planBreak('2099-04-06', '2099-04-20');
    // The subscriber cancels the first and plans a second; the order system rejects the second, then the cancellation.
    const cancelledFirst = await cancelBreak(first.id);
    const second = await planBreak('2099-05-04', '2099-05-18');
    await reject(second.eventId);
    await reject(cancelledFirst);
    expect(await holidayRows()).toEqual([
      { id: first.id, status: 'planned' },
      { id: second.id, status: 'cancelled' },
    ]);
  });

  it('never plans again a service it rejected after the subscriber had cancelled it', async () => {
    await clearHolidayRows();
    const service = await planBreak('2099-06-01', '2099-06-15');
    const cancelled = await cancelBreak(service.id);
    // Rejecting the service finds it cancelled already: nothing shown changes.
    expect((await reject(service.eventId)).acknowledgement.undone).toBe(false);
    // Rejecting the cancellation then must not bring back the service the order system refused.
    expect((await reject(cancelled)).acknowledgement.undone).toBe(false);
    expect(await holidayRows()).toEqual([{ id: service.id, status: 'cancelled' }]);
    // The next one can be booked.
    const next = await planBreak('2099-07-06', '2099-07-20');
    expect((await holidayRows()).find((row) => row.id === next.id)?.status).toBe('planned');
  });

  it('takes back only the service its event planned, not one booked for the same days later', async () => {
    await clearHolidayRows();
    const first = await planBreak('2099-08-03', '2099-08-17');
    await cancelBreak(first.id);
    const again = await planBreak('2099-08-03', '2099-08-17');
    expect((await reject(first.eventId)).acknowledgement.undone).toBe(false);
    expect(await holidayRows()).toEqual(
      expect.arrayContaining([
        { id: first.id, status: 'cancelled' },
        { id: again.id, status: 'planned' },
      ]),
    );
  });

  /** An opt-in asked for as the opt-ins' POST asks: pending with its link, and its event, in one transaction. */
  const askOptIn = (type: string, tokenHash: string) =>
    db.transaction(async (tx) => {
      await tx.query(
        `update opt_ins set value = false, pending = true, confirm_token_hash = $4, confirm_expires_at = now() + interval '1 day', updated_at = now()
          where tenant_id = $1 and bp_number = $2 and type = $3`,
        [tenant.id, bpNumber, type, tokenHash],
      );
      return recordEvent(tx, tenant.id, 'opt_ins.changed', {
        userId,
        bpNumber,
        changes: [{ type, value: false, pending: true }],
      });
    });
  const optInRow = (type: string) =>
    one(
      `select value, pending, confirm_token_hash from opt_ins where tenant_id = $1 and bp_number = $2 and type = $3`,
      [tenant.id, bpNumber, type],
    );
  const firstOptInType = async () =>
    (
      await one<{ type: string }>(
        `select min(type) as type from opt_ins where tenant_id = $1 and bp_number = $2`,
        [tenant.id, bpNumber],
      )
    ).type;

  it('leaves the opt-in it asked for not pending, with no link that could confirm it', async () => {
    const type = await firstOptInType();
    const eventId = await askOptIn(type, 'h-rejected');
    expect((await reject(eventId)).acknowledgement.undone).toBe(true);
    expect(await optInRow(type)).toEqual({ value: false, pending: false, confirm_token_hash: null });
  });

  it('leaves an opt-in asked for again later pending, with its own link', async () => {
    const type = await firstOptInType();
    const earlier = await askOptIn(type, 'h-earlier');
    const later = await askOptIn(type, 'h-later');
    // Asked again within the same millisecond: still another change than the earlier one.
    await db.query(
      `update opt_ins set updated_at = (select created_at + interval '300 microseconds' from account_events where id = $4::uuid)
        where tenant_id = $1 and bp_number = $2 and type = $3`,
      [tenant.id, bpNumber, type, earlier],
    );
    await db.query(
      `update account_events set created_at = (select updated_at from opt_ins where tenant_id = $1 and bp_number = $2 and type = $3)
        where id = $4::uuid`,
      [tenant.id, bpNumber, type, later],
    );
    expect((await reject(earlier)).acknowledgement.undone).toBe(false);
    expect(await optInRow(type)).toEqual({ value: false, pending: true, confirm_token_hash: 'h-later' });
    expect((await reject(later)).acknowledgement.undone).toBe(true);
    expect(await optInRow(type)).toEqual({ value: false, pending: false, confirm_token_hash: null });
  });

  it("marks the offer's acceptance failed and takes the cancellation off the record", async () => {
    await db.query(
      `insert into offer_acceptances (tenant_id, subscription_id, offer_id, user_id, source, status, applied_at)
       values ($1, $2, $3, $4, 'cancellation', 'applied', now())`,
      [tenant.id, subscriptionId, offerId, userId],
    );
    const accepted = await db.transaction((tx) =>
      recordEvent(tx, tenant.id, 'offer.accepted', {
        userId,
        subscriptionId,
        orderNumber: '4000000001',
        offerId,
        source: 'cancellation',
        amount: 0,
        currency: 'EUR',
        paymentId: null,
        change: 'retain',
        effectiveDate: null,
        experiment: null,
      }),
    );
    await reject(accepted);
    expect(
      await one(
        `select status from offer_acceptances where tenant_id = $1 and subscription_id = $2 and offer_id = $3 order by created_at desc limit 1`,
        [tenant.id, subscriptionId, offerId],
      ),
    ).toEqual({ status: 'failed' });

    await db.query(
      `insert into cancellations (tenant_id, subscription_id, user_id, reason, type, effective_date)
       values ($1, $2, $3, 'PREIS', 'regular', '2099-12-31')
       on conflict do nothing`,
      [tenant.id, subscriptionId, userId],
    );
    const cancelled = await db.transaction((tx) =>
      recordEvent(tx, tenant.id, 'subscription.cancelled', {
        userId,
        subscriptionId,
        orderNumber: '4000000001',
        reason: 'PREIS',
        type: 'regular',
        effectiveDate: '2099-12-31',
        issueNumber: null,
        experiment: null,
      }),
    );
    await reject(cancelled);
    expect(
      await db.query(`select 1 from cancellations where tenant_id = $1 and subscription_id = $2`, [
        tenant.id,
        subscriptionId,
      ]),
    ).toHaveLength(0);
  });
});
