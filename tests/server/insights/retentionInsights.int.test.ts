/**
 * The retention insights' figures (issue 27) on a seeded event history whose answers are known:
 * flows started, offers shown, accepted, cancelled, kept, save rate and revenue, per publication
 * and reason, per ISO week and per experiment variant, with the attribution rules (an outcome
 * belongs to the latest start of its subscription and flow, within ATTRIBUTION_DAYS).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/database';
import { retentionInsights } from '../../../server/insights/retentionInsights';
import { recordFlowStart } from '../../../server/insights/flowStarts';
import { getTestDatabase, uniqueTenantId } from '../../support/database';

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
    accepted: (subscriptionId: string, at: string, source: string, amount: number) =>
      insert('offer.accepted', subscriptionId, at, { source, amount, currency: 'EUR' }),
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
    const insights = await retentionInsights(db, { id: tenant, offerExperiments: experiments }, period);
    const cancellation = insights.flows.find((f) => f.flow === 'cancellation')!;
    expect(cancellation).toMatchObject({
      started: 6,
      offersShown: 5,
      accepted: 1,
      cancelled: 2,
      kept: 4,
      revenueKept: 30,
    });
    expect(cancellation.saveRate).toBeCloseTo(4 / 6, 10);
    const renewal = insights.flows.find((f) => f.flow === 'renewal')!;
    expect(renewal).toMatchObject({
      started: 2,
      offersShown: 2,
      accepted: 1,
      kept: 1,
      saveRate: 0.5,
      revenueKept: 100,
    });
    expect(insights.flows.find((f) => f.flow === 'upgrade')).toMatchObject({ started: 0, saveRate: null });
    expect(insights.currency).toBe('EUR');
  });

  it('splits them per publication and cancellation reason', async () => {
    const insights = await retentionInsights(db, { id: tenant }, period);
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
      ['SK', 'PREIS', 3, 1, 2, 0, 0],
      ['TW', 'PREIS', 2, 1, 1, 1, 30],
      ['TW', 'ZEIT', 1, 0, 1, 0, 0],
    ]);
  });

  it('gives every ISO week of the period, empty ones included', async () => {
    const insights = await retentionInsights(db, { id: tenant }, { from: '2026-11-02', to: '2026-11-22' });
    const weeks = insights.flows.find((f) => f.flow === 'cancellation')!.weeks;
    expect(weeks.map((w) => [w.week, w.weekStart, w.started, w.cancelled])).toEqual([
      ['2026-W45', '2026-11-02', 3, 1],
      ['2026-W46', '2026-11-09', 3, 1],
      ['2026-W47', '2026-11-16', 0, 0],
    ]);
  });

  it("shows each variant's save rate with its Wilson interval, and says the difference is not significant yet", async () => {
    const insights = await retentionInsights(db, { id: tenant, offerExperiments: experiments }, period);
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
    const insights = await retentionInsights(db, { id: tenant }, period);
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
    const inPeriod = await retentionInsights(db, { id: other }, period);
    expect(inPeriod.flows[0]).toMatchObject({ started: 1, cancelled: 0, kept: 1 });
    const withBoth = await retentionInsights(db, { id: other }, { from: '2026-11-02', to: '2026-11-22' });
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
