/**
 * The retention insights' daily summary (migration 032, docs/operators.md "Retention insights",
 * "Speed") answers exactly what the direct query answers: random event histories of a few
 * subscriptions (so flows, outcomes and later starts meet within 14 days), summed at one moment,
 * then events written late into summed days and others deleted, summed again or not, and the
 * insights of periods that start and end mid-week, with flows still open, compared whole. Also the
 * triggers' part: which days a late, deleted or changed event makes the summary forget.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { retentionInsights } from '../../../server/insights/retentionInsights';
import { lastClosedDay, summariseRetention } from '../../../server/insights/retentionSummary';
import { summariseRetentionDays } from '../../../server/jobs/retentionSummary';
import { liveWindows } from '../../../server/store/insightsStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

const DAY = 86_400_000;
/** A Wednesday: weeks and periods are cut mid-way. */
const BASE = Date.parse('2026-03-04T00:00:00Z');
const SPAN_DAYS = 60;
const day = (offset: number) => new Date(BASE + offset * DAY).toISOString().slice(0, 10);

interface HistoryEvent {
  minute: number;
  kind: 'start' | 'cancelled' | 'accepted';
  subject: string;
  flow: string;
  publication: string;
  reason: string | null;
  offers: boolean;
  experiment: { id: string; variant: string } | null;
  amount: number | null;
  currency: string | null;
}

const eventArbitrary: fc.Arbitrary<HistoryEvent> = fc.record({
  minute: fc.integer({ min: 0, max: SPAN_DAYS * 1440 - 1 }),
  kind: fc.constantFrom('start', 'start', 'cancelled', 'accepted'),
  subject: fc.constantFrom('S1', 'S2', 'S3', 'S4', 'S5'),
  flow: fc.constantFrom('cancellation', 'cancellation', 'renewal', 'upgrade'),
  publication: fc.constantFrom('TW', 'SK'),
  reason: fc.constantFrom('PREIS', 'ZEIT', null),
  offers: fc.boolean(),
  experiment: fc.constantFrom(null, { id: 'E1', variant: 'control' }, { id: 'E1', variant: 'half' }),
  amount: fc.constantFrom(30, 12.5, 9.99, 0.333, null),
  currency: fc.constantFrom('EUR', 'EUR', 'CHF', null),
});

async function insertEvents(
  db: Database,
  tenant: string,
  events: readonly HistoryEvent[],
): Promise<string[]> {
  const ids = events.map(() => randomUUID());
  if (events.length === 0) return ids;
  const rows = events.map((e) => {
    const at = new Date(BASE + e.minute * 60_000).toISOString();
    const data =
      e.kind === 'start'
        ? {
            subscriptionId: e.subject,
            publication: e.publication,
            flow: e.flow,
            reason: e.flow === 'cancellation' ? e.reason : null,
            offerIds: e.offers ? ['O1'] : [],
            experiment: e.experiment,
          }
        : e.kind === 'cancelled'
          ? { subscriptionId: e.subject, reason: e.reason }
          : {
              subscriptionId: e.subject,
              source: e.flow,
              offerId: 'O1',
              amount: e.amount,
              currency: e.currency,
            };
    const type =
      e.kind === 'start'
        ? 'offer_flow.started'
        : e.kind === 'cancelled'
          ? 'subscription.cancelled'
          : 'offer.accepted';
    return { type, subject: e.subject, data, at };
  });
  await db.query(
    `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, created_at)
     select $1, r.id::uuid, r.type, 'u1', 'subscription', r.subject, r.data, r.at
       from jsonb_to_recordset($2::jsonb) as r(id text, type text, subject text, data jsonb, at timestamptz)`,
    [tenant, JSON.stringify(rows.map((row, i) => ({ ...row, id: ids[i] })))],
  );
  return ids;
}

const experiments = [
  {
    id: 'E1',
    flow: 'cancellation' as const,
    variants: [
      { id: 'control', weight: 1, offers: ['O1'] },
      { id: 'half', weight: 1, offers: [] },
    ],
  },
];

async function summaryDays(db: Database, tenant: string): Promise<string[]> {
  const rows = await db.query<{ day: string }>(
    `select to_char(day, 'YYYY-MM-DD') as day from retention_summary_days where tenant_id = $1 order by day`,
    [tenant],
  );
  return rows.map((row) => row.day);
}

describe('the daily summary', () => {
  let db: Database;
  beforeAll(async () => {
    db = await getTestDatabase();
  });

  it('answers what the direct query answers, over random histories, late and deleted events', async () => {
    let summedSomething = 0;
    let comparisons = 0;
    let fromSummary = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(eventArbitrary, { minLength: 1, maxLength: 70, selector: (e) => e.minute }),
        fc.integer({ min: 0, max: 4 }),
        // Outcomes near the end of an earlier start's window (first, deleted or late ones): the
        // summary must forget the start's day for them.
        fc.array(
          fc.tuple(
            fc.nat(),
            fc.integer({ min: -180, max: 60 }),
            fc.constantFrom<HistoryEvent['kind']>('cancelled', 'accepted'),
            fc.constantFrom('first', 'late', 'deleted'),
          ),
          { maxLength: 4 },
        ),
        // Which of the first events to delete: a few, as each makes the summary forget 15 days too.
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.integer({ min: 10, max: SPAN_DAYS + 20 }),
        // Summed again after the late and deleted events, mostly: a day the summary failed to
        // forget would stay wrong then, a day it forgot is summed anew.
        fc.constantFrom(true, true, true, false),
        fc.array(
          fc.tuple(
            fc.integer({ min: -3, max: SPAN_DAYS + 3 }),
            fc.integer({ min: 0, max: SPAN_DAYS }),
            fc.integer({ min: 0, max: (SPAN_DAYS + 20) * 24 }),
            fc.integer({ min: 1, max: 72 }),
          ),
          { minLength: 3, maxLength: 3 },
        ),
        async (all, lateCount, edges, deletions, summariseAt, summariseAgain, asks) => {
          const tenant = uniqueTenantId('summary');
          // Events are unique by minute, so no two starts of a subscription tie (the direct
          // query's "latest start" would then be either).
          // Each late event makes the summary forget 15 days: a few, or little would be left to read.
          const split = Math.max(1, all.length - lateCount);
          // Outcomes close to the end of a start's window: in the first history, deleted after the
          // summing, or written late. They may share a start's minute: a start and its outcome at
          // once is no tie.
          const starts = all.slice(0, split).filter((e) => e.kind === 'start');
          const edgeEvents = starts.length
            ? edges.map(([pick, minutes, kind, when]) => {
                const start = starts[pick % starts.length];
                return { event: { ...start, kind, minute: start.minute + 14 * 1440 + minutes }, when };
              })
            : [];
          const edgesOf = (when: string) => edgeEvents.filter((e) => e.when === when).map((e) => e.event);
          const first = all.slice(0, split);
          const late = [...all.slice(split), ...edgesOf('late')];
          const ids = await insertEvents(db, tenant, [...first, ...edgesOf('first')]);
          const edgeIds = await insertEvents(db, tenant, edgesOf('deleted'));
          const firstNow = new Date(BASE + summariseAt * DAY);
          summedSomething += await summariseRetention(db, tenant, firstNow);
          // Late events (their days may be summed already) and deleted ones (housekeeping, an account).
          await insertEvents(db, tenant, late);
          const gone = [...deletions.map((pick) => ids[pick % ids.length]), ...edgeIds];
          if (gone.length)
            await db.query(`delete from account_events where tenant_id = $1 and id = any($2::uuid[])`, [
              tenant,
              gone,
            ]);
          if (summariseAgain) await summariseRetention(db, tenant, new Date(firstNow.getTime() + 3 * DAY));
          for (const [fromOffset, length, hours, before] of asks) {
            const period = { from: day(fromOffset), to: day(fromOffset + length) };
            // Any moment; just before the summing, when its last days' flows were still open; then;
            // long after.
            const nows = [
              new Date(BASE + hours * 3_600_000),
              new Date(firstNow.getTime() - before * 3_600_000),
              firstNow,
              new Date(BASE + 400 * DAY),
            ];
            for (const now of nows) {
              const t = { id: tenant, offerExperiments: experiments };
              const direct = await retentionInsights(db, t, period, now, { direct: true });
              const summarised = await retentionInsights(db, t, period, now);
              expect(summarised).toEqual(direct);
              const [{ days }] = await db.query<{ days: number }>(
                `select count(*)::int as days from retention_summary_days
                  where tenant_id = $1 and day between $2 and $3 and day <= $4`,
                [tenant, period.from, period.to, lastClosedDay(now)],
              );
              comparisons += 1;
              if (days > 0) fromSummary += 1;
            }
          }
        },
      ),
      { numRuns: 50, seed: 20261129 },
    );
    // The property is not vacuous: days were summed, and a good share of the answers read some.
    expect(summedSomething).toBeGreaterThan(0);
    expect(fromSummary / comparisons).toBeGreaterThan(0.3);
  }, 120_000);

  it('sums the closed days only, and a late, deleted or changed event makes it forget its days', async () => {
    const tenant = uniqueTenantId('forget');
    const event = (minute: number, kind: HistoryEvent['kind'] = 'start'): HistoryEvent => ({
      minute,
      kind,
      subject: 'S1',
      flow: 'cancellation',
      publication: 'TW',
      reason: 'PREIS',
      offers: true,
      experiment: null,
      amount: 30,
      currency: 'EUR',
    });
    await insertEvents(db, tenant, [event(0), event(10 * 1440 + 5, 'cancelled')]);
    // A day is summed once all its flows have closed, 15 days after it began: on day 30, days 0 to 15.
    const now = new Date(BASE + 30 * DAY + 3_600_000);
    expect(lastClosedDay(now)).toBe(day(15));
    expect(await summariseRetentionDays(db, [tenant], now)).toBe(16);
    expect(await summaryDays(db, tenant)).toEqual(Array.from({ length: 16 }, (_, i) => day(i)));

    // A late event on day 12 touches the windows of days 0 to 12 (whatever came of a flow of those
    // days may have changed), nothing after it.
    const [late] = await insertEvents(db, tenant, [event(12 * 1440 + 60, 'accepted')]);
    expect(await summaryDays(db, tenant)).toEqual([day(13), day(14), day(15)]);
    expect(await summariseRetention(db, tenant, now)).toBe(13);
    expect(await summaryDays(db, tenant)).toHaveLength(16);

    // The window's last day: a flow started late on day 0 takes outcomes until that hour of day 14,
    // so an event on day 14 touches day 0; one on day 15 does not.
    await summariseRetention(db, tenant, now);
    await insertEvents(db, tenant, [{ ...event(14 * 1440 + 22 * 60, 'cancelled'), subject: 'S9' }]);
    expect(await summaryDays(db, tenant)).toEqual([day(15)]);
    await summariseRetention(db, tenant, now);
    await insertEvents(db, tenant, [{ ...event(15 * 1440, 'cancelled'), subject: 'S9' }]);
    expect(await summaryDays(db, tenant)).toEqual([day(0)]);
    await summariseRetention(db, tenant, now);

    // Deleted: the same days as the late event on day 12, and on the window's last day as well.
    const [edge] = await insertEvents(db, tenant, [{ ...event(14 * 1440 + 60, 'accepted'), subject: 'S8' }]);
    await summariseRetention(db, tenant, now);
    await db.query(`delete from account_events where tenant_id = $1 and id = $2`, [tenant, edge]);
    expect(await summaryDays(db, tenant)).toEqual([day(15)]);
    await summariseRetention(db, tenant, now);
    await db.query(`delete from account_events where tenant_id = $1 and id = $2`, [tenant, late]);
    expect(await summaryDays(db, tenant)).toEqual([day(13), day(14), day(15)]);
    await summariseRetention(db, tenant, now);

    // Moved from day 10 to day 15: its old days (0 to 10) and its new ones (1 to 15).
    await db.query(
      `update account_events set created_at = created_at + interval '5 days'
        where tenant_id = $1 and type = 'subscription.cancelled'`,
      [tenant],
    );
    expect(await summaryDays(db, tenant)).toEqual([]);
    expect(await summariseRetention(db, tenant, now)).toBe(16);

    // The deliverer's dispatched_at is nothing the insights read: no day is forgotten.
    await db.query(`update account_events set dispatched_at = now() where tenant_id = $1`, [tenant]);
    expect(await summaryDays(db, tenant)).toHaveLength(16);
    // Other event types leave the summary alone.
    await db.query(
      `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, created_at)
       values ($1, $2, 'address.changed', 'u1', 'business_partner', 'B1', '{}', $3)`,
      [tenant, randomUUID(), new Date(BASE + 5 * DAY).toISOString()],
    );
    expect(await summaryDays(db, tenant)).toHaveLength(16);

    const period = { from: day(0), to: day(20) };
    expect(await retentionInsights(db, { id: tenant }, period, now)).toEqual(
      await retentionInsights(db, { id: tenant }, period, now, { direct: true }),
    );
  });

  it('leaves out an outcome the order system rejected, and forgets the days it had been summed in', async () => {
    const tenant = uniqueTenantId('rejected');
    const event = (
      minute: number,
      kind: HistoryEvent['kind'],
      subject: string,
      flow: string,
    ): HistoryEvent => ({
      minute,
      kind,
      subject,
      flow,
      publication: 'TW',
      reason: flow === 'cancellation' ? 'PREIS' : null,
      offers: true,
      experiment: null,
      amount: 30,
      currency: 'EUR',
    });
    const [, cancelled, , accepted] = await insertEvents(db, tenant, [
      event(0, 'start', 'S1', 'cancellation'),
      event(60, 'cancelled', 'S1', 'cancellation'),
      event(2 * 1440, 'start', 'S2', 'renewal'),
      event(2 * 1440 + 60, 'accepted', 'S2', 'renewal'),
    ]);
    const now = new Date(BASE + 30 * DAY + 3_600_000);
    const period = { from: day(0), to: day(20) };
    const flowOf = async (name: string, direct = false) =>
      (await retentionInsights(db, { id: tenant }, period, now, { direct })).flows.find(
        (f) => f.flow === name,
      )!;
    expect(await summariseRetention(db, tenant, now)).toBe(16);
    expect(await flowOf('cancellation')).toMatchObject({ started: 1, cancelled: 1, kept: 0 });
    expect(await flowOf('renewal')).toMatchObject({ started: 1, accepted: 1, kept: 1 });

    const reject = (eventId: string) =>
      db.query(
        `insert into change_acknowledgements (tenant_id, event_id, status, reason, acknowledged_at)
         values ($1, $2::uuid, 'rejected', '{"de-DE": "Nein.", "en-GB": "No."}', now())`,
        [tenant, eventId],
      );
    // The cancellation is off the record: its flow kept the subscription after all.
    await reject(cancelled);
    expect(await summaryDays(db, tenant)).toEqual(Array.from({ length: 15 }, (_, i) => day(i + 1)));
    expect(await flowOf('cancellation')).toMatchObject({ started: 1, cancelled: 0, kept: 1 });
    // The offer's acceptance failed: no acceptance, no revenue kept.
    await reject(accepted);
    expect(await flowOf('renewal')).toMatchObject({ started: 1, accepted: 0, kept: 0, revenueKept: [] });
    // A confirmation changes nothing; the summary summed anew answers as the direct query.
    expect(await summariseRetention(db, tenant, now)).toBe(3);
    for (const name of ['cancellation', 'renewal'])
      expect(await flowOf(name)).toEqual(await flowOf(name, true));
    expect(await flowOf('cancellation')).toMatchObject({ cancelled: 0, kept: 1 });
  });

  it('reads the days not summed in windows reaching 14 days past them, joined where they overlap', () => {
    const at = (offset: number) => new Date(BASE + offset * DAY).toISOString();
    const span = { from: BASE, to: BASE + 40 * DAY };
    expect(liveWindows(span, [])).toEqual({ from: [at(0)], to: [at(54)] });
    // Days 0–9 summed, 10 not, 11–29 summed, 30–39 not: two windows.
    const summed = [
      ...Array.from({ length: 10 }, (_, i) => day(i)),
      ...Array.from({ length: 19 }, (_, i) => day(11 + i)),
    ];
    expect(liveWindows(span, summed)).toEqual({ from: [at(10), at(30)], to: [at(25), at(54)] });
    // Runs closer than 14 days apart are read as one window.
    expect(liveWindows(span, [day(0), day(5)])).toEqual({ from: [at(1)], to: [at(54)] });
    expect(
      liveWindows(span, summed.concat(day(10), ...Array.from({ length: 10 }, (_, i) => day(30 + i))).sort()),
    ).toEqual({
      from: [],
      to: [],
    });
  });
});
