/**
 * One subscription, one truth: the sequences subscribers ran into, through the API,
 * each read back after the change — the subscription, the list, the offers and the dates offered.
 * Every change goes through engine/domain/lifecycle.ts; these prove the server answers what the
 * model decided. The tests run in order on the demo login's subscriptions of one tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../schemas/generated/subscription';
import { addMonths } from '../../../engine/domain/lifecycle';
import { addDays } from '../../../engine/domain/dates';
import { demoLoginsOf } from '../../../server/seed/demoLogins';
import { SHARED_DEMO_EMAIL } from '../../../server/seed/entities/businessPartners';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';
import {
  fullOfferFlowTenant,
  startOfferFlows,
  type Client,
  type OfferFlowsServer,
} from '../../support/offerFlowsHarness';

const tenant = fullOfferFlowTenant('lifecycle');
/** A tenant of its own for the test that renews its subscriptions from their last issue. */
const issueTenant = fullOfferFlowTenant('lifecycle-issue');
/** And one for the cancellation dates at the end of what was paid for. */
const periodTenant = fullOfferFlowTenant('lifecycle-period');
let server: OfferFlowsServer;
let client: Client;

beforeAll(async () => {
  server = await startOfferFlows([tenant, issueTenant, periodTenant]);
  client = await server.signIn(tenant);
});
afterAll(async () => server?.close());

const read = async (id: string, locale = 'en-GB') => {
  const c = locale === 'en-GB' ? client : await server.signIn(tenant, undefined, locale);
  const one = await c.get<Subscription>(`/subscriptions/${id}`);
  expect(one.status).toBe(200);
  const listed = (await server.subscriptions(c)).find((s) => s.id === id)!;
  // The list and the detail say the same.
  expect({ ...listed, deliveredIssues: undefined, paymentHistory: undefined }).toMatchObject({
    orderStatus: one.body.orderStatus,
    validToOnSaleDate: one.body.validToOnSaleDate,
    renewal: one.body.renewal,
  });
  return one.body;
};
/**
 * The renewals the subscription took have run the months they bought (as some years on): it may be
 * renewed again (engine/domain/lifecycle.ts isRenewed). Tests below renew the same subscriptions
 * one after another.
 */
const renewalsRunOut = (...subscriptionIds: string[]) =>
  server.db.query(
    `update offer_acceptances set created_at = created_at - interval '5 years', applied_at = applied_at - interval '5 years'
      where tenant_id = $1 and subscription_id = any($2::text[]) and source in ('renewal', 'bulk-renewal')`,
    [tenant.id, subscriptionIds],
  );
const renewables = async () =>
  (await server.subscriptions(client))
    .filter((s) => s.isRenewal && s.roles.includes('AG') && !s.renewal?.autoRenewal)
    .sort((a, b) => a.publication.localeCompare(b.publication));

describe('the subscription lifecycle through the API', () => {
  let cancelledId = '';
  let cancelledOn = '';

  it('an offer whose payment page expired unpaid is open again (its payment is cancelled)', async () => {
    const s = (await renewables()).find((x) => x.publication === 'OFS')!;
    const [waiting] = await server.db.query<{ id: string }>(
      `select p.id from payments p join offer_acceptances a on a.tenant_id = p.tenant_id and a.payment_id = p.id
        where p.tenant_id = $1 and a.subscription_id = $2 and p.status = 'pending'`,
      [tenant.id, s.id],
    );
    expect(waiting, 'the demo data has a payment left pending a day ago').toBeDefined();
    const offers = await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=renewal`);
    expect(offers.body.map((o) => o.id)).toContain('OFS-RENEW-24');
    const [payment] = await server.db.query<{ status: string }>(
      `select status from payments where tenant_id = $1 and id = $2`,
      [tenant.id, waiting.id],
    );
    expect(payment.status).toBe('canceled');
  });

  it('cancel, then read: the end and last issue are the cancellation’s, no date after it is offered, cancelling again is refused', async () => {
    const s = (await renewables()).find((x) => x.publication === 'OFP' && x.orderStatus === 'A')!;
    expect((await read(s.id)).renewedUntil).toBeNull();
    expect(s.renewal?.expiryIssueNr).toMatch(/^\d{1,2}\/\d{4}$/);
    const infos = await client.get<any>(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=UMZUG`);
    expect(infos.status).toBe(200);
    // None of the dates offered lies after the subscription's end.
    for (const issue of infos.body.issues) expect(issue.dateOfFirstSale <= s.validToOnSaleDate!).toBe(true);
    const issue = infos.body.issues[0];
    const cancelled = await client.post<any>(`/subscriptions/${s.id}/cancel`, { reason: 'UMZUG', issue });
    expect(cancelled.status).toBe(200);

    const after = await read(s.id);
    expect(after).toMatchObject({
      orderStatus: 'AK',
      isCancelable: false,
      validToOnSaleDate: issue.dateOfFirstSale,
    });
    expect(after.renewal).toMatchObject({ expiryIssueNr: issue.issueNumber, expiryDesc: null });
    expect(after.nextIssue === null || after.nextIssue.dateOfFirstSale! <= after.validToOnSaleDate!).toBe(
      true,
    );
    const again = await client.get<any>(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=UMZUG`);
    expect([again.status, again.body.error.code]).toEqual([409, 'already_cancelled']);
    cancelledId = s.id;
    cancelledOn = issue.dateOfFirstSale;
  });

  it('renew after cancel: the renewal revokes the cancellation and runs on from its date', async () => {
    const renewed = await client.post<any>(
      `/subscriptions/${cancelledId}/recommendations/OFP-RENEW-12/accept?source=renewal`,
    );
    expect(renewed.body).toEqual({ url: null, status: 'applied' });
    const after = await read(cancelledId);
    expect(after).toMatchObject({
      orderStatus: 'A',
      isCancelable: true,
      validToOnSaleDate: addMonths(cancelledOn, 12),
      // The renewal page says so, from the same model (engine/domain/lifecycle.ts renewedUntil).
      renewedUntil: addMonths(cancelledOn, 12),
    });
    expect(after.renewal).toMatchObject({ expiryIssueNr: null, expiryDesc: null });
    // The orders list says the same, so its card offers no second renewal.
    const listed = (await server.subscriptions(client)).find((x) => x.id === cancelledId)!;
    expect(listed.renewedUntil).toBe(addMonths(cancelledOn, 12));
    expect((await server.subscriptions(client)).filter((x) => x.renewedUntil).map((x) => x.id)).toEqual([
      cancelledId,
    ]);
    // It can be cancelled again (the revoked cancellation is gone), and the renewal is not offered again.
    expect((await client.get(`/subscriptions/${cancelledId}/cancellation-reasons`)).status).toBe(200);
    const offers = await client.get<any[]>(`/subscriptions/${cancelledId}/recommendations?source=renewal`);
    expect(offers.body.map((o) => o.id)).not.toContain('OFP-RENEW-12');
    const events = await server.db.query<{ type: string }>(
      `select type from account_events where tenant_id = $1 and subject_id = $2 order by seq`,
      [tenant.id, cancelledId],
    );
    // Flows opened (offer_flow.started) are counted, not changes: left out here.
    expect(events.map((e) => e.type).filter((type) => type !== 'offer_flow.started')).toEqual([
      'subscription.cancelled',
      'offer.accepted',
      'subscription.cancellation_revoked',
    ]);
  });

  it('cancel after a renewal: only the renewed term’s end is offered, so the renewal is not cut short', async () => {
    const s = await read(cancelledId);
    const infos = await client.get<any>(
      `/subscriptions/${cancelledId}/cancellation-infos?cancellationReason=UMZUG`,
    );
    expect(infos.status).toBe(200);
    expect(infos.body.renewedUntil).toBe(s.validToOnSaleDate);
    expect(infos.body.issues).toEqual([{ issueNumber: null, dateOfFirstSale: s.validToOnSaleDate }]);
    // The date it was cancelled to before the renewal is no longer one to choose.
    const earlier = await client.post<any>(`/subscriptions/${cancelledId}/cancel`, {
      reason: 'UMZUG',
      issue: { issueNumber: null, dateOfFirstSale: cancelledOn },
    });
    expect([earlier.status, earlier.body.error.code]).toEqual([400, 'validation_failed']);
    // (The offered date's cancellation is the model's test, engine/domain/lifecycle.ts renewedUntil:
    // the tests below renew this subscription again.)
    expect((await read(cancelledId)).orderStatus).toBe('A');
  });

  it('accept twice: the second is 409 offer_already_accepted and changes nothing; the offer is no longer listed', async () => {
    const s = (await server.subscriptions(client)).find(
      (x) => x.publication === 'OFP' && x.isCancelable && !x.isRenewal && x.orderStatus === 'A',
    )!;
    const first = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-KEEP-HALF/accept?source=cancellation&cancelReason=PREIS`,
    );
    expect(first.body).toEqual({ url: null, status: 'applied' });
    const afterFirst = await read(s.id);
    const second = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-KEEP-HALF/accept?source=cancellation&cancelReason=PREIS`,
    );
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('offer_already_accepted');
    expect(await read(s.id)).toEqual(afterFirst);
    const infos = await client.get<any>(`/subscriptions/${s.id}/cancellation-infos?cancellationReason=PREIS`);
    expect(infos.body.recommendations.map((r: { id: string }) => r.id)).not.toContain('OFP-KEEP-HALF');
    const accepted = await server.db.query(
      `select 1 from offer_acceptances where tenant_id = $1 and subscription_id = $2 and offer_id = 'OFP-KEEP-HALF'`,
      [tenant.id, s.id],
    );
    expect(accepted).toHaveLength(1);
  });

  it('a retention offer pays for its months: the next automatic payment moves past them, on the page as in the list', async () => {
    // The main persona's subscription that renews itself monthly (its first demo login).
    const persona = await server.signIn(tenant, demoLoginsOf(tenant)[0].email);
    const s = (await server.subscriptions(persona)).find(
      (x) =>
        x.renewal?.autoRenewal &&
        x.renewal.autoRenewalNextPaymentDate &&
        x.billingFrequency === '01' &&
        x.isCancelable &&
        x.roles.includes('AG') &&
        x.orderStatus === 'A',
    );
    expect(s, 'the demo login has a monthly subscription that renews itself').toBeDefined();
    const before = s!.renewal!.autoRenewalNextPaymentDate!;
    const taken = await persona.post<any>(
      `/subscriptions/${s!.id}/recommendations/${s!.publication}-KEEP-HALF/accept?source=cancellation&cancelReason=PREIS`,
    );
    expect(taken.body).toEqual({ url: null, status: 'applied' });
    const after = (await persona.get<Subscription>(`/subscriptions/${s!.id}`)).body;
    const listed = (await server.subscriptions(persona)).find((x) => x.id === s!.id)!;
    expect(listed.renewal).toEqual(after.renewal);
    const until = (after as { retentionOffer?: { until: string } }).retentionOffer?.until;
    expect(until).toBeDefined();
    const next = after.renewal!.autoRenewalNextPaymentDate!;
    // The first payment whose month runs past the discount's last day, on the payment's own day
    // of the month as before: the month before it was discounted whole.
    const dayAfter = addDays(until!, 1);
    expect(addMonths(next, 1) > dayAfter).toBe(true);
    expect(next <= dayAfter).toBe(true);
    expect(next > before).toBe(true);
    expect(next.slice(8)).toBe(before.slice(8) > '28' ? next.slice(8) : before.slice(8));
  });

  it('a bundle ends whole: cancelling its master ends its components on the same day', async () => {
    const persona = await server.signIn(tenant, demoLoginsOf(tenant)[0].email);
    const all = await server.subscriptions(persona);
    const master = all.find((x) => x.renewal?.renewalBundleComponent === 'M' && x.orderStatus === 'A');
    expect(master, 'the main persona has a bundle').toBeDefined();
    const parts = all.filter(
      (x) =>
        x.bundle?.bundleNumber === master!.bundle?.bundleNumber && x.renewal?.renewalBundleComponent === 'S',
    );
    expect(parts.length).toBeGreaterThan(0);
    const infos = await persona.get<any>(
      `/subscriptions/${master!.id}/cancellation-infos?cancellationReason=UMZUG`,
    );
    const issue = infos.body.issues[0];
    const cancelled = await persona.post<any>(`/subscriptions/${master!.id}/cancel`, {
      reason: 'UMZUG',
      issue,
    });
    expect(cancelled.status).toBe(200);
    for (const part of parts) {
      const after = (await persona.get<Subscription>(`/subscriptions/${part.id}`)).body;
      expect(after).toMatchObject({
        orderStatus: 'AK',
        validToOnSaleDate: issue.dateOfFirstSale,
        isCancelable: false,
      });
    }
    // The list says the same as each page.
    for (const listed of (await server.subscriptions(persona)).filter((x) =>
      parts.some((p) => p.id === x.id),
    ))
      expect(listed).toMatchObject({ orderStatus: 'AK', validToOnSaleDate: issue.dateOfFirstSale });
    // The master's event names them for the order system.
    const [event] = await server.db.query<{ data: { bundleComponents?: unknown } }>(
      `select data from account_events where tenant_id = $1 and type = 'subscription.cancelled' and subject_id = $2`,
      [tenant.id, master!.id],
    );
    expect(event.data.bundleComponents).toEqual(
      parts
        .map((part) => ({ subscriptionId: part.id, orderNumber: part.orderNumber }))
        .sort((a, b) => a.subscriptionId.localeCompare(b.subscriptionId)),
    );
  });

  it('bulk renewal of several: every end moves, each by its own term', async () => {
    const [a, b] = (await renewables()).filter((x) => x.roles.includes('WE'));
    expect([a.publication, b.publication]).toEqual(['OFP', 'OFS']);
    await renewalsRunOut(a.id, b.id);
    const key = (s: Subscription) => `${s.id.slice(0, 3)}${s.orderNumber}`;
    const today = server.clock.toISOString().slice(0, 10);
    const from = (s: Subscription) => (s.validToOnSaleDate! > today ? s.validToOnSaleDate! : today);
    const done = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        [key(a)]: {
          recommendationId: 'OFP-RENEW-DD',
          paymentProviders: [{ PAYMENT_PROVIDER: 'DIRECT_DEBIT' }],
        },
        [key(b)]: { recommendationId: 'OFS-RENEW-12', paymentProviders: [{ PAYMENT_PROVIDER: 'INVOICE' }] },
      },
    });
    expect(done.body).toEqual({ url: null, status: 'applied' });
    expect((await read(a.id)).validToOnSaleDate).toBe(addMonths(from(a), 12));
    expect((await read(b.id)).validToOnSaleDate).toBe(addMonths(from(b), 12));
    // Sent again (a double submit): refused for the one already renewed, nothing renewed twice.
    const repeat = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        [key(b)]: { recommendationId: 'OFS-RENEW-12', paymentProviders: [{ PAYMENT_PROVIDER: 'INVOICE' }] },
      },
    });
    expect([repeat.status, repeat.body.error.code]).toEqual([409, 'offer_already_accepted']);
    expect((await read(b.id)).validToOnSaleDate).toBe(addMonths(from(b), 12));
  });

  it('upgrade, then offers: paid once, applied once, not offered again; the new product name in each language', async () => {
    const s = (await renewables()).find((x) => x.publication === 'OFS')!;
    const accepted = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFS-UP-NOW/accept?source=upgrade&upgradeTime=NOW`,
    );
    expect(accepted.body.status).toBe('pending');
    // While its payment waits it is neither listed nor accepted again.
    expect(
      (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=upgrade`)).body.map(
        (o) => o.id,
      ),
    ).not.toContain('OFS-UP-NOW');
    expect(
      (
        await client.post<any>(
          `/subscriptions/${s.id}/recommendations/OFS-UP-NOW/accept?source=upgrade&upgradeTime=NOW`,
        )
      ).status,
    ).toBe(409);
    const paid = await server.payOnSandbox(accepted.body.url, {
      action: 'pay',
      cardNumber: '4242424242424242',
      expiry: '12/39',
      holder: 'Demo',
    });
    expect(paid.body.status).toBe('success');
    // Reported again, the payment does not apply twice.
    expect(
      (
        await server.payOnSandbox(accepted.body.url, {
          action: 'pay',
          cardNumber: '4242424242424242',
          expiry: '12/39',
          holder: 'Demo',
        })
      ).body.status,
    ).toBe('success');
    const english = await read(s.id);
    const german = await read(s.id, 'de-DE');
    expect(english.mixType).not.toBe(s.mixType);
    expect(english.displayName).not.toBe(german.displayName);
    expect(english.displayName).toMatch(/edition|digital|access/i);
    expect(
      (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=upgrade`)).body.map(
        (o) => o.id,
      ),
    ).not.toContain('OFS-UP-NOW');
    const applied = await server.db.query<{ type: string }>(
      `select type from account_events where tenant_id = $1 and subject_id = $2 and type = 'offer.accepted' and data->>'offerId' = 'OFS-UP-NOW'`,
      [tenant.id, s.id],
    );
    expect(applied).toHaveLength(1);
  });

  it('cancelling one subscription of a bulk renewal voids its payment for all of them; a cancelled one is not bulk-renewed', async () => {
    const [a, b] = (await renewables()).filter((x) => x.roles.includes('WE') && x.orderStatus === 'A');
    await renewalsRunOut(a.id, b.id);
    const key = (s: Subscription) => `${s.id.slice(0, 3)}${s.orderNumber}`;
    const pending = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        [key(a)]: {
          recommendationId: `${a.publication}-RENEW-BUNDLE`,
          paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }],
        },
        [key(b)]: {
          recommendationId: `${b.publication}-RENEW-BUNDLE`,
          paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }],
        },
      },
    });
    expect(pending.body.status).toBe('pending');
    const infos = await client.get<any>(`/subscriptions/${a.id}/cancellation-infos?cancellationReason=UMZUG`);
    expect(
      (
        await client.post<any>(`/subscriptions/${a.id}/cancel`, {
          reason: 'UMZUG',
          issue: infos.body.issues[0],
        })
      ).status,
    ).toBe(200);
    // The payment is void, and b's offer is open again and can be taken anew.
    const [payment] = await server.db.query<{ status: string }>(
      `select status from payments where tenant_id = $1 and id = $2`,
      [tenant.id, pending.body.pendingPayment.id],
    );
    expect(payment.status).toBe('canceled');
    // Each opener asking for it learns that the portal cancelled it, and why; its page, still open
    // and paid, charges nothing and says the same.
    for (const s of [a, b]) {
      const seen = await client.get<any>(
        `/subscriptions/${s.id}/pending-payments/${pending.body.pendingPayment.id}`,
      );
      expect(seen.body).toEqual({ status: 'canceled', canceledBecause: 'subscription_cancelled' });
    }
    const page = new URL(pending.body.url, server.baseUrl);
    const html = await (await fetch(page)).text();
    // What the page says of the payment (its script carries every outcome's words beside it).
    expect(/<p role="status">([^<]*)<\/p>/.exec(html)?.[1]).toBe(
      'This payment was cancelled because a subscription it was for has been cancelled in the meantime. Nothing has been charged. You can close this window.',
    );
    const paid = await server.payOnSandbox(pending.body.url, {
      action: 'pay',
      cardNumber: '4242424242424242',
      expiry: '12/39',
      holder: 'Sam Taylor',
    });
    expect(paid.body).toEqual({ status: 'canceled', canceledBecause: 'subscription_cancelled' });
    expect(
      (await client.get<any[]>(`/subscriptions/${b.id}/recommendations?source=renewal`)).body.map(
        (o) => o.id,
      ),
    ).toContain(`${b.publication}-RENEW-BUNDLE`);
    expect(
      (
        await client.post<any>(
          `/subscriptions/${b.id}/recommendations/${b.publication}-RENEW-BUNDLE/accept?source=renewal`,
        )
      ).body.status,
    ).toBe('pending');
    // A cancelled subscription is not the recipient's to renew in bulk: that would revoke the ordering party's cancellation.
    const refused = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        [key(a)]: {
          recommendationId: `${a.publication}-RENEW-24`,
          paymentProviders: [{ PAYMENT_PROVIDER: 'PAYPAL' }],
        },
      },
    });
    expect(refused.status).toBe(403);
    expect((await read(a.id)).orderStatus).toBe('AK');
    // The order system turns the cancellation down: its event names the cancellation's changes
    // (not the voided payment's, recorded in the same transaction), so they are taken back.
    const [cancelled] = await server.db.query<{ id: string }>(
      `select id from account_events where tenant_id = $1 and type = 'subscription.cancelled'
          and data->>'subscriptionId' = $2 order by seq desc limit 1`,
      [tenant.id, a.id],
    );
    const answer = await acknowledgeChange(
      { db: server.db, now: () => new Date(), mailFrom: 'portal@lifecycle.test' },
      tenant,
      '00000000-0000-4000-8000-000000000000',
      cancelled.id,
      { status: 'rejected', reason: { 'de-DE': 'Nicht möglich.', 'en-GB': 'Not possible.' } },
    );
    expect(answer.acknowledgement.undone).toBe(true);
    expect((await read(a.id)).orderStatus).toBe(a.orderStatus);
  });
});

describe('a renewal of a subscription whose end is an issue', () => {
  it('runs on from the last issue the order system names, not from today', async () => {
    const own = await server.signIn(issueTenant);
    const s = (await server.subscriptions(own)).find(
      (x) => x.isRenewal && x.roles.includes('AG') && !x.renewal?.autoRenewal && x.orderStatus === 'A',
    )!;
    const [last] = await server.db.query<{ issueNumber: string; day: string }>(
      `select issue_number as "issueNumber", to_char(date_of_first_sale, 'YYYY-MM-DD') as day from issues
        where tenant_id = $1 and publication = $2 and date_of_first_sale > current_date + 20
        order by date_of_first_sale limit 1`,
      [issueTenant.id, s.publication],
    );
    await server.db.query(
      `update subscriptions set valid_to = null,
              details = jsonb_set(details, '{renewal,expiryIssueNr}', to_jsonb($3::text))
        where tenant_id = $1 and id = $2`,
      [issueTenant.id, s.id, last.issueNumber],
    );
    const renewed = await own.post<any>(
      `/subscriptions/${s.id}/recommendations/${s.publication}-RENEW-12/accept?source=renewal`,
    );
    expect(renewed.body).toEqual({ url: null, status: 'applied' });
    expect((await own.get<Subscription>(`/subscriptions/${s.id}`)).body.validToOnSaleDate).toBe(
      addMonths(last.day, 12),
    );
  });

  it('is refused past 31.12.9999, an order system’s end for a term without end: a 409, no payment asked for', async () => {
    const own = await server.signIn(issueTenant);
    const s = (await server.subscriptions(own)).find(
      (x) =>
        x.publication === 'OFP' &&
        x.isRenewal &&
        x.roles.includes('AG') &&
        !x.renewal?.autoRenewal &&
        x.orderStatus === 'A',
    )!;
    await server.db.query(
      `update subscriptions set valid_to = '9999-12-31' where tenant_id = $1 and id = $2`,
      [issueTenant.id, s.id],
    );
    const counts = () =>
      server.db.query<{ acceptances: number; payments: number }>(
        `select (select count(*)::int from offer_acceptances where tenant_id = $1 and subscription_id = $2) as acceptances,
                (select count(*)::int from payments where tenant_id = $1) as payments`,
        [issueTenant.id, s.id],
      );
    const before = await counts();
    // Not offered; a list from before (another tab) is answered with the refusal.
    const offered = await own.get<any[]>(`/subscriptions/${s.id}/recommendations?source=renewal`);
    expect(offered.body.map((o) => o.id)).not.toContain('OFP-RENEW-12');
    expect(offered.body.map((o) => o.id)).not.toContain('OFP-RENEW-BUNDLE');
    // By invoice, and by card (the bundle renewal is paid on the provider's page).
    for (const offer of ['OFP-RENEW-12', 'OFP-RENEW-BUNDLE']) {
      const refused = await own.post<any>(
        `/subscriptions/${s.id}/recommendations/${offer}/accept?source=renewal`,
      );
      expect([refused.status, refused.body.error?.code]).toEqual([409, 'beyond_calendar']);
    }
    expect(await counts()).toEqual(before);
    expect((await own.get<Subscription>(`/subscriptions/${s.id}`)).body.validToOnSaleDate).toBe('9999-12-31');
  });
});

describe('cancellation dates at the end of what the subscriber has', () => {
  it("offers the term's last issue after the next ones, named so, and cancels to it", async () => {
    const persona = await server.signIn(periodTenant);
    const infosOf = async (id: string) =>
      (await persona.get<any>(`/subscriptions/${id}/cancellation-infos?cancellationReason=UMZUG`)).body;
    const candidates = (await server.subscriptions(persona)).filter(
      (x) => x.isRenewal && x.roles.includes('AG') && !x.renewal?.autoRenewal && x.orderStatus === 'A',
    );
    let found: { s: Subscription; issues: any[] } | undefined;
    for (const s of candidates) {
      const infos = await infosOf(s.id);
      if (infos.cancellable && infos.issues.length > 1 && infos.issues.at(-1).endOf === 'term') {
        found = { s, issues: infos.issues };
        break;
      }
    }
    expect(found, 'a subscription whose term ends after the next issues').toBeDefined();
    const { s, issues } = found!;
    const last = issues.at(-1);
    // The last issue of the term: on or before its end, after every other date offered.
    expect(last.dateOfFirstSale <= s.validToOnSaleDate!).toBe(true);
    for (const other of issues.slice(0, -1)) {
      expect(other.dateOfFirstSale < last.dateOfFirstSale).toBe(true);
      expect(other.endOf).toBeUndefined();
    }
    const cancelled = await persona.post<any>(`/subscriptions/${s.id}/cancel`, {
      reason: 'UMZUG',
      issue: last,
    });
    expect(cancelled.status).toBe(200);
    // The answer names the date as the infos did, for the success dialog.
    expect(cancelled.body).toMatchObject({ effectiveDate: last.dateOfFirstSale, endOf: 'term' });
    // So does the confirmation mail, in the subscriber's language.
    const mail = (await server.mails(SHARED_DEMO_EMAIL)).find(
      (m) => m.subject.startsWith('Your cancellation') && m.text.includes(s.orderNumber),
    );
    expect(mail?.text).toContain(' – the end of the term.');
    expect((await persona.get<Subscription>(`/subscriptions/${s.id}`)).body).toMatchObject({
      orderStatus: 'AK',
      validToOnSaleDate: last.dateOfFirstSale,
    });
  });

  it('marks the last issue before the next automatic payment as the end of the period paid for', async () => {
    const persona = await server.signIn(periodTenant, demoLoginsOf(periodTenant)[0].email);
    const s = (await server.subscriptions(persona)).find(
      (x) =>
        x.renewal?.autoRenewal &&
        x.renewal.autoRenewalNextPaymentDate &&
        x.isCancelable &&
        x.roles.includes('AG') &&
        x.orderStatus === 'A',
    )!;
    expect(s, 'the demo login has a subscription that renews itself').toBeDefined();
    const infos = await persona.get<any>(
      `/subscriptions/${s.id}/cancellation-infos?cancellationReason=UMZUG`,
    );
    const marked = infos.body.issues.filter((issue: any) => issue.endOf);
    expect(marked).toHaveLength(1);
    expect(marked[0].endOf).toBe('paid_period');
    const next = s.renewal!.autoRenewalNextPaymentDate!;
    expect(marked[0].dateOfFirstSale < next).toBe(true);
    // No issue offered lies between it and the next payment.
    for (const issue of infos.body.issues)
      expect(issue.dateOfFirstSale <= marked[0].dateOfFirstSale || issue.dateOfFirstSale >= next).toBe(true);
  });
});
