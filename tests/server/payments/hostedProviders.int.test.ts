/**
 * Stripe Checkout and Mollie behind the payment adapter (docs/architecture.md "Payments"), through the
 * official SDKs pointed at local stand-ins of the providers' documented APIs: each flow settles once (a
 * repeated or reordered report changes nothing), a forged signature, a foreign tenant's report and an
 * unknown payment are refused, a lost webhook is reconciled, and declined and cancelled payments end
 * as such. The renewal is the offer flow paid here; the payment method change registers a card.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { uniqueTenantId } from '../../support/database';
import {
  firstRenewable,
  offerFlowTenant,
  startOfferFlows,
  type Client,
  type OfferFlowsServer,
} from '../../support/offerFlowsHarness';
import {
  startMollieStandin,
  startStripeStandin,
  type MollieStandin,
  type StripeStandin,
} from '../../support/paymentStandins';
import { paidAsAsked } from '../../../server/payments/stripeGateway';
import { paidAsAsked as molliePaidAsAsked } from '../../../server/payments/mollieGateway';

const STRIPE_KEY_ENV = 'TEST_HOSTED_STRIPE_KEY';
const STRIPE_WHSEC_ENV = 'TEST_HOSTED_STRIPE_WHSEC';
const MOLLIE_KEY_ENV = 'TEST_HOSTED_MOLLIE_KEY';
const WEBHOOK_SECRET = 'whsec_aG9zdGVkLXByb3ZpZGVycy10ZXN0LXNlY3JldA==';

const paymentMethodChange = {
  paymentMethodChange: {
    allowedChanges: Object.fromEntries(
      ['direct_debit', 'sepa', 'invoice', 'credit_card', 'paypal', 'none'].map((from) => [
        from,
        ['credit_card', 'paypal'],
      ]),
    ),
  },
};

function hostedTenant(prefix: string, provider: 'stripe' | 'mollie'): ServerTenant {
  return offerFlowTenant(uniqueTenantId(prefix), ['renewal', 'payment-method-change'], {
    renewal: { recommendationCategory: 'VERL', bulkRenewal: true },
    ...paymentMethodChange,
    payments:
      provider === 'stripe'
        ? { provider, stripe: { secretKeyEnv: STRIPE_KEY_ENV, webhookSecretEnv: STRIPE_WHSEC_ENV } }
        : { provider, mollie: { apiKeyEnv: MOLLIE_KEY_ENV } },
  });
}

// One tenant per story, so no story sees another's payments or renewals.
const stripePaid = hostedTenant('stripe-paid', 'stripe');
const stripeLost = hostedTenant('stripe-lost', 'stripe');
const stripeCancel = hostedTenant('stripe-cancel', 'stripe');
const stripeMethod = hostedTenant('stripe-method', 'stripe');
const stripeOtherAmount = hostedTenant('stripe-amount', 'stripe');
// With the cancellation too, which voids an offer waiting for its payment.
const stripeVoided = offerFlowTenant(uniqueTenantId('stripe-voided'), ['renewal', 'cancellation'], {
  renewal: { recommendationCategory: 'VERL' },
  payments: {
    provider: 'stripe',
    stripe: { secretKeyEnv: STRIPE_KEY_ENV, webhookSecretEnv: STRIPE_WHSEC_ENV },
  },
});
const molliePaid = hostedTenant('mollie-paid', 'mollie');
const mollieLost = hostedTenant('mollie-lost', 'mollie');
const mollieFailed = hostedTenant('mollie-failed', 'mollie');
const mollieMethod = hostedTenant('mollie-method', 'mollie');
const mollieRefused = hostedTenant('mollie-refused', 'mollie');
// A Stripe tenant whose variables are not set on this server.
const stripeUnset = offerFlowTenant(uniqueTenantId('stripe-unset'), ['renewal'], {
  renewal: { recommendationCategory: 'VERL' },
  payments: {
    provider: 'stripe',
    stripe: { secretKeyEnv: 'TEST_HOSTED_UNSET', webhookSecretEnv: 'TEST_HOSTED_UNSET_TOO' },
  },
});
// A publisher's tenant that names no provider (`payments: {}`, not a demo): it takes no payment.
const noProvider = offerFlowTenant(uniqueTenantId('no-provider'), ['renewal'], {
  renewal: { recommendationCategory: 'VERL' },
  payments: {},
});
const all = [
  noProvider,
  stripeUnset,
  stripePaid,
  stripeLost,
  stripeCancel,
  stripeMethod,
  stripeOtherAmount,
  stripeVoided,
  molliePaid,
  mollieRefused,
  mollieLost,
  mollieFailed,
  mollieMethod,
];

let server: OfferFlowsServer;
let stripe: StripeStandin;
let mollie: MollieStandin;

beforeAll(async () => {
  stripe = await startStripeStandin();
  mollie = await startMollieStandin();
  vi.stubEnv(STRIPE_KEY_ENV, 'sk_test_hostedProviders');
  vi.stubEnv(STRIPE_WHSEC_ENV, WEBHOOK_SECRET);
  vi.stubEnv(MOLLIE_KEY_ENV, 'test_hostedProviders');
  vi.stubEnv('PORTAL_STRIPE_API_URL', stripe.url);
  vi.stubEnv('PORTAL_MOLLIE_API_URL', mollie.apiEndpoint);
  // The Mollie SDK speaks only TLS, with its own root certificates: the stand-in's is made at start.
  vi.stubEnv('NODE_TLS_REJECT_UNAUTHORIZED', '0');
  server = await startOfferFlows(all);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await stripe?.close();
  await mollie?.close();
  vi.unstubAllEnvs();
});

const webhookUrl = (t: ServerTenant, provider: string) =>
  `${server.baseUrl}/t/${t.id}/api/payments/${provider}/webhook`;

const acceptRenewal = (t: ServerTenant) => server.acceptCardRenewal(t);
const openPopup = (url: string) => server.openPopup(url);
const renewable = firstRenewable;

/** The page the provider sends the subscriber back to, and the status it tells the opener. */
async function returnPage(url: string): Promise<{ status: string; text: string }> {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  const html = await answer.text();
  return {
    status: /data-status="(\w+)"/.exec(html)![1],
    text: /<p id="result" role="status">([^<]*)</.exec(html)![1],
  };
}

async function paymentRow(t: ServerTenant, id: string) {
  const [row] = await server.db.query<{ status: string; provider: string; reference: string | null }>(
    `select status, provider, provider_reference as reference from payments where tenant_id = $1 and id = $2`,
    [t.id, id],
  );
  return row;
}

async function settledEvents(t: ServerTenant, paymentId: string): Promise<number> {
  const [row] = await server.db.query<{ n: string }>(
    `select count(*)::text as n from account_events where tenant_id = $1 and type = 'payment.settled' and data->>'paymentId' = $2`,
    [t.id, paymentId],
  );
  return Number(row.n);
}

/** The `registration` of the subscription's latest `payment_method.changed` event. */
async function registrationOf(t: ServerTenant, subscriptionId: string) {
  const [row] = await server.db.query<{ registration: unknown }>(
    `select data->'registration' as registration from account_events
      where tenant_id = $1 and type = 'payment_method.changed' and subject_id = $2 order by seq desc limit 1`,
    [t.id, subscriptionId],
  );
  return row?.registration;
}

const validTo = async (client: Client, id: string) =>
  (await server.subscriptions(client)).find((s) => s.id === id)!.validToOnSaleDate;

/** A signed Stripe webhook as Stripe sends it. */
const postStripe = (t: ServerTenant, signed: { payload: string; header: string }) =>
  fetch(webhookUrl(t, 'stripe'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
    body: signed.payload,
  });

const postMollie = (t: ServerTenant, id: string) =>
  fetch(webhookUrl(t, 'mollie'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ id }).toString(),
  });

describe('Stripe Checkout', () => {
  it('renews once from the signed webhook; a replayed, reordered, forged or foreign report changes nothing', async () => {
    stripe.setWebhook(webhookUrl(stripePaid, 'stripe'), WEBHOOK_SECRET);
    const { client, s, url, paymentId } = await acceptRenewal(stripePaid);
    const before = await validTo(client, s.id);
    const page = await openPopup(url);
    expect(page.startsWith(`${stripe.url}/c/pay/cs_test_`)).toBe(true);
    const sessionId = new URL(page).pathname.split('/').at(-1)!;
    const session = stripe.sessions.get(sessionId)!;
    expect(session).toMatchObject({
      mode: 'payment',
      client_reference_id: paymentId,
      metadata: { paymentId, tenant: stripePaid.id },
      locale: 'en-GB',
    });
    // The amount in minor units and the offer's currency.
    const [price] = await server.db.query<{ price: number; currency: string }>(
      `select price::float8 as price, currency from offers where tenant_id = $1 and id = 'OFP-RENEW-BUNDLE'`,
      [stripePaid.id],
    );
    expect(session.amount_total).toBe(Math.round(price.price * 100));
    expect(session.currency).toBe(price.currency.toLowerCase());
    // Opening the popup again goes to the same session: one page, one payment.
    expect(await openPopup(url)).toBe(page);

    const back = await stripe.pay(sessionId);
    expect(stripe.deliveries.map((d) => [d.type, d.status])).toContainEqual([
      'checkout.session.completed',
      200,
    ]);
    expect((await paymentRow(stripePaid, paymentId)).status).toBe('success');
    expect(await returnPage(back)).toEqual({
      status: 'success',
      text: 'Payment successful. This window closes now.',
    });
    expect((await client.get<any>(`/subscriptions/${s.id}/pending-payments/${paymentId}`)).body.status).toBe(
      'success',
    );
    const after = await validTo(client, s.id);
    expect(after! > before!).toBe(true);

    // The same event again, then a late "expired" of the same session: nothing moves.
    const completed = stripe.events.find(
      (e) => e.type === 'checkout.session.completed' && e.data.object.id === sessionId,
    )!;
    expect(
      (
        await postStripe(
          stripePaid,
          stripe.signedEvent('checkout.session.completed', completed.data.object, WEBHOOK_SECRET),
        )
      ).status,
    ).toBe(200);
    const expired = { ...completed.data.object, status: 'expired' as const, url: null };
    expect(
      (await postStripe(stripePaid, stripe.signedEvent('checkout.session.expired', expired, WEBHOOK_SECRET)))
        .status,
    ).toBe(200);
    expect((await paymentRow(stripePaid, paymentId)).status).toBe('success');
    expect(await settledEvents(stripePaid, paymentId)).toBe(1);
    expect(await validTo(client, s.id)).toBe(after);

    // A forged signature, a signature with another secret, a stale body: 400.
    const signed = stripe.signedEvent('checkout.session.completed', completed.data.object, WEBHOOK_SECRET);
    expect(
      (
        await postStripe(stripePaid, {
          ...signed,
          header: signed.header.replace(/v1=\w+/, `v1=${'0'.repeat(64)}`),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await postStripe(
          stripePaid,
          stripe.signedEvent(
            'checkout.session.completed',
            completed.data.object,
            'whsec_b3RoZXItc2VjcmV0LW90aGVyLXNlY3JldA==',
          ),
        )
      ).status,
    ).toBe(400);
    expect(
      (await postStripe(stripePaid, { ...signed, payload: signed.payload.replace('"complete"', '"open"') }))
        .status,
    ).toBe(400);
    // A session of no payment of this tenant, and one naming another tenant: 404.
    const unknown = {
      ...completed.data.object,
      id: 'cs_test_unknown',
      client_reference_id: '00000000-0000-4000-8000-000000000000',
      metadata: { ...completed.data.object.metadata, paymentId: '00000000-0000-4000-8000-000000000000' },
    };
    expect(
      (
        await postStripe(
          stripePaid,
          stripe.signedEvent('checkout.session.completed', unknown, WEBHOOK_SECRET),
        )
      ).status,
    ).toBe(404);
    const foreign = {
      ...completed.data.object,
      metadata: { ...completed.data.object.metadata, tenant: stripeLost.id },
    };
    expect(
      (
        await postStripe(
          stripePaid,
          stripe.signedEvent('checkout.session.completed', foreign, WEBHOOK_SECRET),
        )
      ).status,
    ).toBe(404);
    // Sent to a tenant that does not take Stripe payments: 404.
    expect((await postStripe(molliePaid, signed)).status).toBe(404);
    expect(await settledEvents(stripePaid, paymentId)).toBe(1);
  });

  it('settles a session paid at another amount or currency than asked as an error, applying nothing', async () => {
    stripe.setWebhook(webhookUrl(stripeOtherAmount, 'stripe'), WEBHOOK_SECRET);
    const { client, s, url, paymentId } = await acceptRenewal(stripeOtherAmount);
    const before = await validTo(client, s.id);
    const sessionId = new URL(await openPopup(url)).pathname.split('/').at(-1)!;
    const session = stripe.sessions.get(sessionId)!;
    const paidOtherwise = {
      ...session,
      status: 'complete' as const,
      payment_status: 'paid' as const,
      amount_total: 1,
    };
    expect(
      (
        await postStripe(
          stripeOtherAmount,
          stripe.signedEvent('checkout.session.completed', paidOtherwise, WEBHOOK_SECRET),
        )
      ).status,
    ).toBe(200);
    expect((await paymentRow(stripeOtherAmount, paymentId)).status).toBe('error');
    expect(await validTo(client, s.id)).toBe(before);
    expect(
      paidAsAsked(
        'success',
        { mode: 'payment', amount_total: 1250, currency: 'gbp' },
        { id: 'p-1', amount: 12.5, currency: 'EUR' },
      ),
    ).toBe('error');
    expect(
      paidAsAsked(
        'success',
        { mode: 'payment', amount_total: 1250, currency: 'eur' },
        { id: 'p-1', amount: 12.5, currency: 'EUR' },
      ),
    ).toBe('success');
    expect(
      paidAsAsked(
        'success',
        { mode: 'setup', amount_total: null, currency: 'eur' },
        { id: 'p-2', amount: 0, currency: 'EUR' },
      ),
    ).toBe('success');
    // Mollie's answer is its API's (the webhook names only an id): the same rule on its amount.
    const asked = { id: 'p-1', amount: 12.5, currency: 'EUR' };
    expect(molliePaidAsAsked('success', { amount: { value: '12.50', currency: 'EUR' } }, asked)).toBe(
      'success',
    );
    expect(molliePaidAsAsked('success', { amount: { value: '1.00', currency: 'EUR' } }, asked)).toBe('error');
    expect(molliePaidAsAsked('success', { amount: { value: '12.50', currency: 'GBP' } }, asked)).toBe(
      'error',
    );
    expect(molliePaidAsAsked('canceled', { amount: { value: '1.00', currency: 'EUR' } }, asked)).toBe(
      'canceled',
    );
  });

  it('reconciles a payment whose webhook never arrived', async () => {
    stripe.setWebhook(webhookUrl(stripeLost, 'stripe'), WEBHOOK_SECRET);
    stripe.setDeliverWebhooks(false);
    try {
      const { client, s, url, paymentId } = await acceptRenewal(stripeLost);
      const before = await validTo(client, s.id);
      const sessionId = new URL(await openPopup(url)).pathname.split('/').at(-1)!;
      await stripe.pay(sessionId);
      expect((await paymentRow(stripeLost, paymentId)).status).toBe('pending');
      // Not yet asked: the webhook may still come.
      await server.reconcilePayments();
      expect((await paymentRow(stripeLost, paymentId)).status).toBe('pending');
      await server.db.query(
        `update payments set created_at = created_at - interval '6 minutes' where tenant_id = $1 and id = $2`,
        [stripeLost.id, paymentId],
      );
      const round = await server.reconcilePayments();
      expect(round.settled).toBeGreaterThanOrEqual(1);
      expect((await paymentRow(stripeLost, paymentId)).status).toBe('success');
      expect((await validTo(client, s.id))! > before!).toBe(true);
      expect(await settledEvents(stripeLost, paymentId)).toBe(1);
    } finally {
      stripe.setDeliverWebhooks(true);
    }
  });

  it('keeps a declined card on the page, ends a cancelled payment as cancelled and expires its session; an async failure ends as an error', async () => {
    stripe.setWebhook(webhookUrl(stripeCancel, 'stripe'), WEBHOOK_SECRET);
    const { client, s, url, paymentId } = await acceptRenewal(stripeCancel);
    const before = await validTo(client, s.id);
    const page = await openPopup(url);
    const sessionId = new URL(page).pathname.split('/').at(-1)!;
    await expect(stripe.pay(sessionId, '4000000000000002')).rejects.toThrow();
    expect((await paymentRow(stripeCancel, paymentId)).status).toBe('pending');
    // The subscriber cancels on Stripe's page: Stripe sends them to the cancel URL.
    const cancelUrl = stripe.sessions.get(sessionId)!.cancel_url!;
    expect(await returnPage(cancelUrl)).toMatchObject({ status: 'canceled' });
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
    expect((await paymentRow(stripeCancel, paymentId)).status).toBe('canceled');
    expect(await validTo(client, s.id)).toBe(before);

    // Accepted again (the offer is free again), paid by a method that fails later.
    const again = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-BUNDLE/accept?source=renewal`,
    );
    expect(again.body.status).toBe('pending');
    const second = new URL(await openPopup(again.body.url)).pathname.split('/').at(-1)!;
    await stripe.completeAsync(second, 'failed');
    expect((await paymentRow(stripeCancel, again.body.pendingPayment.id)).status).toBe('error');
    expect(await validTo(client, s.id)).toBe(before);
  });

  it('stops the page of a payment a cancellation voided, which then says why', async () => {
    const { client, s, url, paymentId } = await acceptRenewal(stripeVoided);
    const sessionId = new URL(await openPopup(url)).pathname.split('/').at(-1)!;
    const reasons = await client.get<Array<{ cancelReason: string }>>(
      `/subscriptions/${s.id}/cancellation-reasons`,
    );
    const reason = reasons.body[0].cancelReason;
    const infos = await client.get<any>(
      `/subscriptions/${s.id}/cancellation-infos?cancellationReason=${reason}`,
    );
    const cancelled = await client.post<any>(`/subscriptions/${s.id}/cancel`, {
      reason,
      issue: infos.body.issues[0],
    });
    expect(cancelled.status).toBe(200);
    // Stopped at Stripe once the cancellation is committed, without holding up its answer.
    await vi.waitFor(() => expect(stripe.sessions.get(sessionId)!.status).toBe('expired'), {
      timeout: 5_000,
    });
    expect((await paymentRow(stripeVoided, paymentId)).status).toBe('canceled');
    expect((await client.get<any>(`/subscriptions/${s.id}/pending-payments/${paymentId}`)).body).toEqual({
      status: 'canceled',
      canceledBecause: 'subscription_cancelled',
    });
  });

  it('registers a card in setup mode for the payment method change', async () => {
    stripe.setWebhook(webhookUrl(stripeMethod, 'stripe'), WEBHOOK_SECRET);
    const client = await server.signIn(stripeMethod);
    const s = (await server.subscriptions(client)).find((x) => x.orderStatus === 'A')!;
    const popup = await client.post<any>(`/subscriptions/${s.id}/payment-details/credit-card`);
    expect(popup.status).toBe(200);
    const sessionId = new URL(await openPopup(popup.body.url)).pathname.split('/').at(-1)!;
    expect(stripe.sessions.get(sessionId)).toMatchObject({ mode: 'setup', currency: 'eur' });
    const back = await stripe.pay(sessionId);
    expect(await returnPage(back)).toEqual({
      status: 'success',
      text: 'Payment method saved. This window closes now.',
    });
    const details = await client.get<any>(`/subscriptions/${s.id}/payment-details`);
    expect(JSON.stringify(details.body)).toMatch(/credit_card/i);
    // The order system learns where Stripe keeps the card: the session whose SetupIntent saved it.
    expect(await registrationOf(stripeMethod, s.id)).toEqual({
      provider: 'stripe',
      paymentId: popup.body.pendingPayment.id,
      reference: sessionId,
      customerId: null,
    });
  });
});

describe('Mollie', () => {
  it('renews once from its API’s answer to the webhook; a repeated webhook changes nothing, an unknown id is refused', async () => {
    const { client, s, url, paymentId } = await acceptRenewal(molliePaid);
    const before = await validTo(client, s.id);
    const page = await openPopup(url);
    const molliePaymentId = new URL(page).pathname.split('/').at(-1)!;
    const created = mollie.payments.get(molliePaymentId)!;
    expect(created).toMatchObject({
      method: 'creditcard',
      locale: 'en_GB',
      metadata: { paymentId, tenant: molliePaid.id },
      webhookUrl: webhookUrl(molliePaid, 'mollie'),
    });
    const back = await mollie.settle(molliePaymentId, 'paid');
    expect(mollie.deliveries.at(-1)).toMatchObject({ paymentId: molliePaymentId, status: 200 });
    expect(await returnPage(back!)).toMatchObject({ status: 'success' });
    expect((await validTo(client, s.id))! > before!).toBe(true);
    expect((await postMollie(molliePaid, molliePaymentId)).status).toBe(200);
    expect(await settledEvents(molliePaid, paymentId)).toBe(1);
    // An id of no payment of this tenant, one of another tenant, and a body that is no Mollie id.
    expect((await postMollie(molliePaid, 'tr_unknown123')).status).toBe(404);
    expect((await postMollie(mollieLost, molliePaymentId)).status).toBe(404);
    expect((await postMollie(molliePaid, 'cs_test_1')).status).toBe(400);
    expect((await postMollie(stripePaid, molliePaymentId)).status).toBe(404);
  });

  it('settles from the API, never from the request: a webhook before the payment is decided settles nothing; a lost one is reconciled', async () => {
    const { client, s, url, paymentId } = await acceptRenewal(mollieLost);
    const before = await validTo(client, s.id);
    const molliePaymentId = new URL(await openPopup(url)).pathname.split('/').at(-1)!;
    expect((await postMollie(mollieLost, molliePaymentId)).status).toBe(200);
    expect((await paymentRow(mollieLost, paymentId)).status).toBe('pending');
    mollie.setStatus(molliePaymentId, 'paid');
    await server.db.query(
      `update payments set created_at = created_at - interval '6 minutes' where tenant_id = $1 and id = $2`,
      [mollieLost.id, paymentId],
    );
    await server.reconcilePayments();
    expect((await paymentRow(mollieLost, paymentId)).status).toBe('success');
    expect((await validTo(client, s.id))! > before!).toBe(true);
  });

  it('ends a failed payment as an error and a cancelled one as cancelled; closing the popup cancels it at Mollie', async () => {
    const { client, s, url, paymentId } = await acceptRenewal(mollieFailed);
    const before = await validTo(client, s.id);
    const first = new URL(await openPopup(url)).pathname.split('/').at(-1)!;
    const back = await mollie.settle(first, 'failed');
    expect(await returnPage(back!)).toMatchObject({ status: 'error' });
    expect((await paymentRow(mollieFailed, paymentId)).status).toBe('error');

    const again = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-BUNDLE/accept?source=renewal`,
    );
    const second = new URL(await openPopup(again.body.url)).pathname.split('/').at(-1)!;
    await mollie.settle(second, 'canceled');
    expect((await paymentRow(mollieFailed, again.body.pendingPayment.id)).status).toBe('canceled');

    // The popup closed without a word: the portal cancels the payment at Mollie first.
    const third = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-BUNDLE/accept?source=renewal`,
    );
    const molliePaymentId = new URL(await openPopup(third.body.url)).pathname.split('/').at(-1)!;
    const abandoned = await client.post<any>(
      `/subscriptions/${s.id}/pending-payments/${third.body.pendingPayment.id}/abandon`,
    );
    expect(abandoned.body.status).toBe('canceled');
    expect(mollie.payments.get(molliePaymentId)!.status).toBe('canceled');
    expect(await validTo(client, s.id)).toBe(before);
  });

  it('registers a card with a first payment of 0.00 that leaves a mandate', async () => {
    const client = await server.signIn(mollieMethod);
    const s = (await server.subscriptions(client)).find((x) => x.orderStatus === 'A')!;
    const popup = await client.post<any>(`/subscriptions/${s.id}/payment-details/credit-card`);
    const molliePaymentId = new URL(await openPopup(popup.body.url)).pathname.split('/').at(-1)!;
    const created = mollie.payments.get(molliePaymentId)!;
    expect(created).toMatchObject({ sequenceType: 'first', amount: { value: '0.00' } });
    expect(created.customerId).toMatch(/^cst_/);
    const back = await mollie.settle(molliePaymentId, 'paid');
    expect(await returnPage(back!)).toMatchObject({ status: 'success' });
    expect([...mollie.mandates.values()].some((m) => m.customerId === created.customerId)).toBe(true);
    // The order system learns the customer that holds the mandate.
    expect(await registrationOf(mollieMethod, s.id)).toEqual({
      provider: 'mollie',
      paymentId: popup.body.pendingPayment.id,
      reference: molliePaymentId,
      customerId: created.customerId,
    });
  });
});

describe('a provider that cannot be used', () => {
  it('refuses the payment before anything is accepted when the tenant’s variables are not set', async () => {
    const client = await server.signIn(stripeUnset);
    const s = renewable(await server.subscriptions(client));
    const accepted = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-BUNDLE/accept?source=renewal`,
    );
    expect(accepted.status).toBe(503);
    expect(accepted.body.error.code).toBe('payment_unavailable');
    expect(accepted.body.error.message).toContain('TEST_HOSTED_UNSET');
    const [pending] = await server.db.query<{ n: string }>(
      `select count(*)::text as n from payments where tenant_id = $1 and provider = 'stripe'`,
      [stripeUnset.id],
    );
    expect(pending.n).toBe('0');
  });

  it('refuses it, before anything is accepted, for a publisher that names no provider: no sandbox by default', async () => {
    const client = await server.signIn(noProvider);
    const s = renewable(await server.subscriptions(client));
    const payments = async () =>
      (
        await server.db.query<{ n: string }>(
          `select count(*)::text as n from payments where tenant_id = $1`,
          [noProvider.id],
        )
      )[0].n;
    const before = await payments();
    const accepted = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-BUNDLE/accept?source=renewal`,
    );
    expect(accepted.status).toBe(503);
    expect(accepted.body.error).toMatchObject({ code: 'payment_unavailable' });
    expect(accepted.body.error.message).toContain('names no payment provider');
    expect(await payments()).toBe(before);
  });

  it('says so in the popup when the provider refuses to open a page; closing it gives the payment up', async () => {
    // Mollie refuses a PayPal first payment of 0.00 (the stand-in as Mollie documents it).
    const client = await server.signIn(mollieRefused);
    // A subscription PayPal may be registered for (not one that pays by PayPal, not one changed above).
    let s: Subscription | undefined;
    let popup: { status: number; body: any } | undefined;
    for (const candidate of (await server.subscriptions(client))
      .filter((x) => x.orderStatus === 'A')
      .reverse()) {
      popup = await client.post<any>(`/subscriptions/${candidate.id}/payment-details/paypal`);
      if (popup.status === 200) {
        s = candidate;
        break;
      }
    }
    expect(s, 'a subscription that may change to PayPal').toBeDefined();
    if (!s || !popup) return;
    const answer = await fetch(new URL(popup.body.url, server.baseUrl), { redirect: 'manual' });
    expect(answer.status, await answer.clone().text()).toBe(502);
    const html = await answer.text();
    expect(html).toContain('data-status="unavailable"');
    expect(html).toContain('The payment provider could not be reached. Nothing was changed.');
    const abandoned = await client.post<any>(
      `/subscriptions/${s.id}/pending-payments/${popup.body.pendingPayment.id}/abandon`,
    );
    expect(abandoned.body.status).toBe('canceled');
  });
});
