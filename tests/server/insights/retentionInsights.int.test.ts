/**
 * The retention insights' figures on a seeded event history whose answers are known:
 * flows started, open, offers shown, accepted, cancelled, kept, save rate and revenue, per
 * publication and reason, per ISO week and per experiment variant, with the attribution rules (an
 * outcome belongs to the latest start of its subscription and flow, within ATTRIBUTION_DAYS), and
 * the flows still open at the moment asked (docs/operators.md "Retention insights": only a closed window
 * keeps).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { retentionInsights } from '../../../server/insights/retentionInsights';
import { recordFlowStart } from '../../../server/insights/flowStarts';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { seedRetentionHistory } from '../../support/retentionHistory';
import { ATTRIBUTION_DAYS } from '../../../server/store/insightsStore';

/** Long after every flow of the first history: all their windows have closed. */
const LATER = new Date('2027-01-31T00:00:00Z');
const DAY = 86_400_000;

type Experiment = { id: string; variant: string } | null;

function historyOf(db: Database, tenant: string) {
  const insert = (type: string, subscriptionId: string, at: string, data: Record<string, unknown>) =>
    db.query(
      `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, created_at)
       values ($1, $2, $3, 'u1', 'subscription', $4, $5::jsonb, $6)`,
      [tenant, randomUUID(), type, subscriptionId, JSON.stringify({ subscriptionId, ...data }), at],
    );
  return {
    start: (
      subscriptionId: string,
      at: string,
      flow: string,
      publication: string,
      reason: string | null,
      offerIds: string[],
      experiment: Experiment = null,
    ) =>
      insert('offer_flow.started', subscriptionId, at, { flow, publication, reason, offerIds, experiment }),
    cancelled: (subscriptionId: string, at: string, reason: string) =>
      insert('subscription.cancelled', subscriptionId, at, { reason }),
    accepted: (subscriptionId: string, at: string, source: string, amount: number, currency = 'EUR') =>
      insert('offer.accepted', subscriptionId, at, { source, amount, currency }),
  };
}

describe('retention insights', () => {
  let db: Database;
  const tenant = uniqueTenantId('insights');
  const experiments = [
    {
      id: 'price-offers',
      flow: 'cancellation' as const,
      reason: 'PREIS',
      variants: [
        { id: 'control', weight: 1, offers: ['TW-KEEP-HALF'] },
        { id: 'no-offer', weight: 1, offers: [] },
      ],
    },
  ];

  beforeAll(async () => {
    db = await getTestDatabase();
    const h = historyOf(db, tenant);
    const control = { id: 'price-offers', variant: 'control' };
    // ISO week 2026-W45 (Monday 2 November).
    await h.start('S1', '2026-11-02T10:00:00Z', 'cancellation', 'TW', 'PREIS', ['A'], control);
    await h.accepted('S1', '2026-11-02T10:05:00Z', 'cancellation', 30);
    await h.start('S2', '2026-11-03T10:00:00Z', 'cancellation', 'TW', 'PREIS', ['A'], control);
    await h.cancelled('S2', '2026-11-03T10:02:00Z', 'PREIS');
    await h.start('S3', '2026-11-04T10:00:00Z', 'cancellation', 'TW', 'ZEIT', [], {
      id: 'price-offers',
      variant: 'no-offer',
    });
    await h.start('R1', '2026-11-05T09:00:00Z', 'renewal', 'TW', null, ['TW-RENEW-12']);
    await h.accepted('R1', '2026-11-05T09:01:00Z', 'renewal', 100);
    // A retention offer taken later is not the renewal flow's.
    await h.start('R2', '2026-11-06T09:00:00Z', 'renewal', 'TW', null, ['TW-RENEW-12']);
    await h.accepted('R2', '2026-11-06T09:30:00Z', 'cancellation', 12);
    // ISO week 2026-W46: a cancellation after the attribution window does not count.
    await h.start('S4', '2026-11-10T10:00:00Z', 'cancellation', 'SK', 'PREIS', ['B']);
    await h.cancelled('S4', '2026-11-30T12:00:00Z', 'PREIS');
    // Two flows on two days: the cancellation belongs to the later one.
    await h.start('S5', '2026-11-10T11:00:00Z', 'cancellation', 'SK', 'PREIS', ['B']);
    await h.start('S5', '2026-11-11T11:00:00Z', 'cancellation', 'SK', 'PREIS', ['B']);
    await h.cancelled('S5', '2026-11-11T11:05:00Z', 'PREIS');
    // Outside the period, and a cancellation without a flow: neither counts.
    await h.start('S6', '2026-10-30T10:00:00Z', 'cancellation', 'TW', 'PREIS', ['A']);
    await h.cancelled('S6', '2026-11-02T08:00:00Z', 'PREIS');
    await h.cancelled('S7', '2026-11-05T08:00:00Z', 'ZEIT');
  });

  const period = { from: '2026-11-02', to: '2026-11-15' };

  it('counts each flow started in the period and what came of it', async () => {
    const insights = await retentionInsights(
      db,
      { id: tenant, offerExperiments: experiments },
      period,
      LATER,
    );
    const cancellation = insights.flows.find((f) => f.flow === 'cancellation')!;
    expect(cancellation).toMatchObject({
      started: 6,
      offersShown: 5,
      accepted: 1,
      cancelled: 2,
      open: 0,
      kept: 4,
      revenueKept: [{ currency: 'EUR', amount: 30 }],
    });
    expect(cancellation.saveRate).toBeCloseTo(4 / 6, 10);
    const renewal = insights.flows.find((f) => f.flow === 'renewal')!;
    expect(renewal).toMatchObject({
      started: 2,
      offersShown: 2,
      accepted: 1,
      kept: 1,
      saveRate: 0.5,
      revenueKept: [{ currency: 'EUR', amount: 100 }],
    });
    expect(insights.flows.find((f) => f.flow === 'upgrade')).toMatchObject({ started: 0, saveRate: null });
  });

  it('splits them per publication and cancellation reason', async () => {
    const insights = await retentionInsights(db, { id: tenant }, period, LATER);
    const segments = insights.flows.find((f) => f.flow === 'cancellation')!.segments;
    expect(
      segments.map((s) => [
        s.publication,
        s.reason,
        s.started,
        s.cancelled,
        s.kept,
        s.accepted,
        s.revenueKept,
      ]),
    ).toEqual([
      ['SK', 'PREIS', 3, 1, 2, 0, []],
      ['TW', 'PREIS', 2, 1, 1, 1, [{ currency: 'EUR', amount: 30 }]],
      ['TW', 'ZEIT', 1, 0, 1, 0, []],
    ]);
  });

  it('gives every ISO week of the period, empty ones included', async () => {
    const insights = await retentionInsights(
      db,
      { id: tenant },
      { from: '2026-11-02', to: '2026-11-22' },
      LATER,
    );
    const weeks = insights.flows.find((f) => f.flow === 'cancellation')!.weeks;
    expect(weeks.map((w) => [w.week, w.weekStart, w.started, w.cancelled])).toEqual([
      ['2026-W45', '2026-11-02', 3, 1],
      ['2026-W46', '2026-11-09', 3, 1],
      ['2026-W47', '2026-11-16', 0, 0],
    ]);
  });

  it("shows each variant's save rate with its Wilson interval, and says the difference is not significant yet", async () => {
    const insights = await retentionInsights(
      db,
      { id: tenant, offerExperiments: experiments },
      period,
      LATER,
    );
    expect(insights.experiments).toHaveLength(1);
    const [experiment] = insights.experiments;
    expect(experiment).toMatchObject({
      id: 'price-offers',
      flow: 'cancellation',
      reason: 'PREIS',
      inTenantFile: true,
    });
    expect(experiment.variants.map((v) => [v.id, v.started, v.kept])).toEqual([
      ['control', 2, 1],
      ['no-offer', 1, 1],
    ]);
    const control = experiment.variants[0];
    // Wilson's interval of 1 out of 2 at 95 %: 0.5 ± 0.4057 (rounded).
    expect(control.interval!.low).toBeCloseTo(0.0945, 3);
    expect(control.interval!.high).toBeCloseTo(0.9055, 3);
    // The offers the order system's data does not have are named (this tenant has no offers at all).
    expect(control.unknownOffers).toEqual(['TW-KEEP-HALF']);
    expect(experiment.unknownReason).toBe(true);
    expect(experiment.significant).toBe(false);
    expect(experiment.comparisons[0]).toMatchObject({
      variant: 'no-offer',
      control: 'control',
      significant: false,
    });
  });

  it('lists an experiment that only the events still name', async () => {
    const insights = await retentionInsights(db, { id: tenant }, period, LATER);
    expect(insights.experiments.map((e) => [e.id, e.inTenantFile, e.variants.map((v) => v.id)])).toEqual([
      ['price-offers', false, ['control', 'no-offer']],
    ]);
  });

  it('gives an outcome after the period to a newer flow after the period, not to one in it', async () => {
    const other = uniqueTenantId('insights-edge');
    const h = historyOf(db, other);
    await h.start('S8', '2026-11-14T10:00:00Z', 'cancellation', 'TW', 'PREIS', ['A']);
    await h.start('S8', '2026-11-17T10:00:00Z', 'cancellation', 'TW', 'PREIS', ['A']);
    await h.cancelled('S8', '2026-11-18T10:00:00Z', 'PREIS');
    const inPeriod = await retentionInsights(db, { id: other }, period, LATER);
    expect(inPeriod.flows[0]).toMatchObject({ started: 1, cancelled: 0, kept: 1 });
    const withBoth = await retentionInsights(
      db,
      { id: other },
      { from: '2026-11-02', to: '2026-11-22' },
      LATER,
    );
    expect(withBoth.flows[0]).toMatchObject({ started: 2, cancelled: 1, kept: 1 });
  });

  it('records a flow start once per subscription, flow and day', async () => {
    const other = uniqueTenantId('insights-start');
    const start = {
      tenantId: other,
      userId: 'u1',
      subscription: { id: 'S1', orderNumber: '4000000001', publication: 'TW' },
      flow: 'cancellation' as const,
      reason: 'PREIS',
      offerIds: ['A'],
      experiment: null,
    };
    const now = new Date();
    expect(await recordFlowStart(db, start, now)).toBe(true);
    expect(await recordFlowStart(db, { ...start, reason: 'ZEIT' }, now)).toBe(false);
    expect(await recordFlowStart(db, { ...start, flow: 'renewal', reason: null }, now)).toBe(true);
    expect(await recordFlowStart(db, start, new Date(now.getTime() + 86_400_000))).toBe(true);
    const rows = await db.query(
      `select 1 from account_events where tenant_id = $1 and type = 'offer_flow.started'`,
      [other],
    );
    expect(rows).toHaveLength(3);
  });
});

describe('open and closed flows', () => {
  let db: Database;
  const tenant = uniqueTenantId('insights-open');
  // A Wednesday: its ISO week began on Monday 23 November.
  const now = new Date('2026-11-25T12:00:00Z');
  const ago = (days: number, minutes = 0) =>
    new Date(now.getTime() - days * DAY - minutes * 60_000).toISOString();

  beforeAll(async () => {
    db = await getTestDatabase();
    const h = historyOf(db, tenant);
    // Eight flows started minutes ago, four of them cancelled since: the window is open for all
    // eight, so none is "kept" yet (the page once said "50 % saved").
    for (let i = 1; i <= 8; i++) {
      await h.start(`F${i}`, ago(0, 60 - i), 'cancellation', 'TW', 'PREIS', ['TW-KEEP-HALF']);
      if (i <= 4) await h.cancelled(`F${i}`, ago(0, 30 - i), 'PREIS');
    }
    // Three whose window closed: one cancelled, two kept (one of them by an offer).
    await h.start('C1', ago(20), 'cancellation', 'TW', 'PREIS', ['TW-KEEP-HALF']);
    await h.cancelled('C1', ago(19), 'PREIS');
    await h.start('C2', ago(20), 'cancellation', 'TW', 'PREIS', ['TW-KEEP-HALF']);
    await h.accepted('C2', ago(20, -5), 'cancellation', 29.9);
    await h.start('C3', ago(21), 'cancellation', 'TW', 'ZEIT', []);
    // One day short of its window: still open, though nothing may happen any more.
    await h.start('C4', ago(ATTRIBUTION_DAYS - 1), 'cancellation', 'TW', 'ZEIT', []);
    // Renewals in two currencies: an accepted one today (open, not kept yet) and a closed one.
    await h.start('R1', ago(0, 10), 'renewal', 'TW', null, ['TW-RENEW-12']);
    await h.accepted('R1', ago(0, 5), 'renewal', 119, 'EUR');
    await h.start('R2', ago(30), 'renewal', 'TW', null, ['TW-RENEW-CH']);
    await h.accepted('R2', ago(30, -1), 'renewal', 99.5, 'CHF');
    // The order system's words for the codes.
    await db.query(
      `insert into publications (tenant_id, publication, client_id, description) values ($1, 'TW', 'TW1', 'Technikwelt')`,
      [tenant],
    );
    await db.query(
      `insert into cancellation_reasons (tenant_id, publication, code, position, descriptions)
       values ($1, 'TW', 'PREIS', 1, $2::jsonb)`,
      [tenant, JSON.stringify({ 'de-DE': 'Das Abonnement ist mir zu teuer.', 'en-GB': 'Too expensive.' })],
    );
    await db.query(
      `insert into offers (tenant_id, id, publication, category, price, currency, payment_provider, offer, effect)
       values ($1, 'TW-KEEP-HALF', 'TW', 'CANCEL', 29.9, 'EUR', 'INVOICE', $2::jsonb, '{"kind":"retain","months":3,"discountPercent":50}')`,
      [
        tenant,
        JSON.stringify({
          kind: 'article',
          pictureUrl: null,
          openInNewTab: false,
          texts: {
            'de-DE': { title: 'Drei Monate zum halben Preis', description: '' },
            'en-GB': { title: 'Three months at half price', description: '' },
          },
        }),
      ],
    );
  });

  const period = { from: '2026-10-01', to: '2026-11-25' };
  const experiments = [
    {
      id: 'price-offers',
      flow: 'cancellation' as const,
      reason: 'PREIS',
      variants: [
        { id: 'half', weight: 1, offers: ['TW-KEEP-HALF'] },
        { id: 'none', weight: 1, offers: ['TW-GONE'] },
      ],
    },
  ];

  it('counts a flow as kept only once its window closed without a cancellation; open ones in no rate', async () => {
    const insights = await retentionInsights(db, { id: tenant }, period, now);
    expect(insights.asOf).toBe(now.toISOString());
    const cancellation = insights.flows.find((f) => f.flow === 'cancellation')!;
    expect(cancellation).toMatchObject({ started: 12, open: 9, cancelled: 5, accepted: 1, kept: 2 });
    expect(cancellation.saveRate).toBeCloseTo(2 / 3, 10);
    // This week: the eight fresh flows, all open, no rate at all rather than "50 %".
    const thisWeek = cancellation.weeks.at(-1)!;
    expect(thisWeek).toMatchObject({ weekStart: '2026-11-23', started: 8, open: 8, cancelled: 4, kept: 0 });
    expect(thisWeek.saveRate).toBeNull();
    // Per reason: PREIS has its closed two, ZEIT one closed (kept) and one open.
    const segments = cancellation.segments.map((s) => [s.reason, s.started, s.open, s.kept, s.saveRate]);
    expect(segments).toEqual([
      ['PREIS', 10, 8, 1, 0.5],
      ['ZEIT', 2, 1, 1, 1],
    ]);
    // The same moment a fortnight later: every window has closed.
    const later = await retentionInsights(db, { id: tenant }, period, new Date(now.getTime() + 15 * DAY));
    expect(later.flows[0]).toMatchObject({ started: 12, open: 0, cancelled: 5, kept: 7 });
  });

  it('sums revenue per currency, open flows included (a paid offer is final), a renewal kept only when closed', async () => {
    const insights = await retentionInsights(db, { id: tenant }, period, now);
    const renewal = insights.flows.find((f) => f.flow === 'renewal')!;
    expect(renewal).toMatchObject({
      started: 2,
      open: 1,
      accepted: 2,
      kept: 1,
      saveRate: 1,
      revenueKept: [
        { currency: 'CHF', amount: 99.5 },
        { currency: 'EUR', amount: 119 },
      ],
    });
    expect(insights.flows[0].revenueKept).toEqual([{ currency: 'EUR', amount: 29.9 }]);
  });

  it("names the reasons and the experiments' offers in the order system's words, per locale", async () => {
    const insights = await retentionInsights(db, { id: tenant, offerExperiments: experiments }, period, now);
    expect(insights.names.reasons).toEqual({
      TW: { PREIS: { 'de-DE': 'Das Abonnement ist mir zu teuer.', 'en-GB': 'Too expensive.' } },
    });
    expect(insights.names.offers).toEqual({
      'TW-KEEP-HALF': { 'de-DE': 'Drei Monate zum halben Preis', 'en-GB': 'Three months at half price' },
    });
    const [experiment] = insights.experiments;
    expect(experiment.unknownReason).toBe(false);
    expect(experiment.variants.map((v) => v.unknownOffers)).toEqual([[], ['TW-GONE']]);
  });

  it('on the made-up history (tests/support/retentionHistory.ts): the flows of the last 14 days are open, the rate is of the others', async () => {
    const history = uniqueTenantId('insights-history');
    await seedRetentionHistory(db, history, [], now);
    const insights = await retentionInsights(
      db,
      { id: history },
      { from: '2026-09-01', to: '2026-11-25' },
      now,
    );
    const starts = await db.query<{ flow: string; open: boolean }>(
      `select data->>'flow' as flow, created_at > $2::timestamptz - make_interval(days => $3) as open
         from account_events where tenant_id = $1 and type = 'offer_flow.started'`,
      [history, now.toISOString(), ATTRIBUTION_DAYS],
    );
    for (const flow of insights.flows) {
      const mine = starts.filter((s) => s.flow === flow.flow);
      expect(flow.started).toBe(mine.length);
      expect(flow.open).toBe(mine.filter((s) => s.open).length);
      expect(flow.kept).toBeLessThanOrEqual(flow.started - flow.open);
      expect(flow.saveRate).toBeCloseTo(flow.kept / (flow.started - flow.open), 10);
      expect(flow.weeks.reduce((sum, w) => sum + w.open, 0)).toBe(flow.open);
      // A week that ended more than a window ago has nothing open; the current one nothing kept.
      for (const week of flow.weeks) {
        if (Date.parse(`${week.weekStart}T00:00:00Z`) + 7 * DAY <= now.getTime() - ATTRIBUTION_DAYS * DAY)
          expect(week.open).toBe(0);
      }
      expect(flow.weeks.at(-1)!.kept).toBe(0);
    }
    // The history is drawn per tenant id, which is new each run: a flow with few starts (upgrades
    // start on four days in ten) may have none in the last 14 days, the cancellations always do.
    expect(insights.flows.find((flow) => flow.flow === 'cancellation')!.open).toBeGreaterThan(0);
  });
});
