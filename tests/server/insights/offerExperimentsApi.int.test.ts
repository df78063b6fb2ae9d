/**
 * Offer experiments through the API: the cancellation flow shows the offers of the
 * subscriber's variant, only those may be accepted, the assignment is recorded in the flow's
 * events, a reload counts no second flow, and the insights count the flow under its variant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../schemas/generated/subscription';
import { assignVariant } from '../../../engine/domain/offerExperiments';
import { retentionInsights } from '../../../server/insights/retentionInsights';
import { utcDay } from '../../../engine/domain/dates';
import {
  fullOfferFlowTenant,
  offerFlowTenant,
  startOfferFlows,
  type OfferFlowsServer,
} from '../../support/offerFlowsHarness';

const experiment = {
  id: 'price-offers',
  flow: 'cancellation' as const,
  reason: 'PREIS',
  variants: [
    { id: 'digital-only', weight: 1, offers: ['OFP-KEEP-DIGITAL'] },
    { id: 'no-offer', weight: 1, offers: [] },
  ],
};
const renewalExperiment = {
  id: 'renewal-terms',
  flow: 'renewal' as const,
  variants: [
    { id: 'twelve-months', weight: 1, offers: ['OFP-RENEW-12'] },
    { id: 'both', weight: 1, offers: ['OFP-RENEW-12', 'OFP-RENEW-DD'] },
  ],
};
const base = fullOfferFlowTenant('experiments');
const tenant = offerFlowTenant(base.id, base.features, {
  cancellation: base.cancellation,
  renewal: base.renewal,
  upgrade: base.upgrade,
  offerExperiments: [experiment, renewalExperiment],
});
let server: OfferFlowsServer;

beforeAll(async () => {
  server = await startOfferFlows([tenant]);
});
afterAll(async () => server?.close());

describe('offer experiments in the cancellation flow', () => {
  it("shows and accepts only the subscriber's variant, and records the assignment", async () => {
    const client = await server.signIn(tenant);
    const s = (await server.subscriptions(client)).find(
      (x: Subscription) => x.publication === 'OFP' && x.isCancelable && !x.isRenewal,
    )!;
    const infos = await client.get<any>(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=PREIS`);
    expect(infos.status).toBe(200);
    await client.get(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=PREIS`);
    const starts = await server.db.query<{ user_id: string; data: any }>(
      `select user_id, data from account_events where tenant_id = $1 and type = 'offer_flow.started'`,
      [tenant.id],
    );
    expect(starts).toHaveLength(1);
    const variant = assignVariant(tenant.id, experiment, starts[0].user_id);
    expect(starts[0].data).toMatchObject({
      flow: 'cancellation',
      reason: 'PREIS',
      publication: 'OFP',
      experiment: { id: 'price-offers', variant: variant.id },
      offerIds: variant.offers,
    });
    expect(infos.body.recommendations.map((r: { id: string }) => r.id)).toEqual(variant.offers);
    // Another reason has no experiment: the offers of the data as they are.
    const time = await client.get<any>(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=ZEIT`);
    expect(time.body.recommendations.map((r: { id: string }) => r.id)).toEqual(['OFP-KEEP-HALF']);
    // An offer of the reason that the variant does not show cannot be accepted.
    const hidden = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-KEEP-HALF/accept?source=cancellation&cancelReason=PREIS`,
    );
    expect(hidden.status).toBe(404);

    const issue = infos.body.issues[0];
    expect((await client.post(`/subscriptions/${s.id}/cancel`, { reason: 'PREIS', issue })).status).toBe(200);
    const [cancelled] = await server.db.query<{ data: any }>(
      `select data from account_events where tenant_id = $1 and type = 'subscription.cancelled'`,
      [tenant.id],
    );
    expect(cancelled.data.experiment).toEqual({ id: 'price-offers', variant: variant.id });

    const today = utcDay(new Date());
    const insights = await retentionInsights(server.db, tenant, { from: today, to: today }, new Date());
    const counted = insights.experiments[0].variants.find((v) => v.id === variant.id)!;
    // Cancelled minutes ago: counted as cancelled, but its window is open, so in no rate yet.
    expect(counted).toMatchObject({
      started: 1,
      open: 1,
      cancelled: 1,
      kept: 0,
      saveRate: null,
      unknownOffers: [],
    });
    expect(insights.experiments[0].unknownReason).toBe(false);
  });

  it("lists the renewal offers of the subscriber's variant and records it with the accepted offer", async () => {
    const client = await server.signIn(tenant);
    const s = (await server.subscriptions(client)).find(
      (x: Subscription) =>
        x.isRenewal && x.publication === 'OFP' && x.orderStatus === 'A' && !x.renewal?.autoRenewal,
    )!;
    const offers = await client.get<Array<{ id: string }>>(
      `/subscriptions/${s.id}/recommendations?source=renewal`,
    );
    const [start] = await server.db.query<{ user_id: string; data: any }>(
      `select user_id, data from account_events where tenant_id = $1 and type = 'offer_flow.started' and subject_id = $2`,
      [tenant.id, s.id],
    );
    const variant = assignVariant(tenant.id, renewalExperiment, start.user_id);
    expect(offers.body.map((o) => o.id)).toEqual(variant.offers);
    expect(start.data.experiment).toEqual({ id: 'renewal-terms', variant: variant.id });
    const accepted = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-12/accept?source=renewal`,
    );
    expect(accepted.body).toEqual({ url: null, status: 'applied' });
    const [event] = await server.db.query<{ data: any }>(
      `select data from account_events where tenant_id = $1 and type = 'offer.accepted' and subject_id = $2`,
      [tenant.id, s.id],
    );
    expect(event.data.experiment).toEqual({ id: 'renewal-terms', variant: variant.id });
  });
});
