/**
 * Refunds (docs/architecture.md "Payments": "Refunds"): money paid online for what the portal could
 * not give goes back through the payment's provider, with the official SDKs pointed at the
 * providers' stand-ins. The order system rejecting a paid offer refunds that offer's share; a
 * payment whose offers could no longer apply is refunded whole; a provider out of reach is asked
 * again later, one that refuses leaves the refund failed for the operator. Each refund is asked
 * once (its id the idempotency key), recorded as `payment.refunded`, and mailed once issued.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';
import { SHARED_DEMO_EMAIL } from '../../../server/seed';
import { REFUND_RETRY_MINUTES } from '../../../server/payments/paymentRefunds';
import { uniqueTenantId } from '../../support/database';
import { formatMoney } from '../../../engine/domain/money';
import type { RejectedChanges } from '../../../schemas/generated/rejected-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { bulkSelectionKey } from '../../../engine/domain/offers';
import {
  fullOfferFlowTenant,
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

const STRIPE_KEY_ENV = 'TEST_REFUND_STRIPE_KEY';
const STRIPE_WHSEC_ENV = 'TEST_REFUND_STRIPE_WHSEC';
const MOLLIE_KEY_ENV = 'TEST_REFUND_MOLLIE_KEY';
const WEBHOOK_SECRET = 'whsec_cmVmdW5kcy10ZXN0LXNlY3JldC1yZWZ1bmRzLXRlc3Q=';
const REASON = { 'de-DE': 'Nicht möglich.', 'en-GB': 'Not possible.' };

function hostedTenant(prefix: string, provider: 'stripe' | 'mollie'): ServerTenant {
  return offerFlowTenant(uniqueTenantId(prefix), ['renewal'], {
    renewal: { recommendationCategory: 'VERL' },
    payments:
      provider === 'stripe'
        ? { provider, stripe: { secretKeyEnv: STRIPE_KEY_ENV, webhookSecretEnv: STRIPE_WHSEC_ENV } }
        : { provider, mollie: { apiKeyEnv: MOLLIE_KEY_ENV } },
  });
}

const stripeRejected = hostedTenant('refund-stripe', 'stripe');
const stripeRefused = hostedTenant('refund-refused', 'stripe');
const stripeVoided = hostedTenant('refund-voided', 'stripe');
const mollieRejected = hostedTenant('refund-mollie', 'mollie');
// No provider named: a demo tenant pays on the sandbox.
const sandboxLate = offerFlowTenant(uniqueTenantId('refund-late'), ['renewal'], {
  renewal: { recommendationCategory: 'VERL' },
});
const sandboxBulk = fullOfferFlowTenant('refund-bulk');
const sandboxCurrencies = fullOfferFlowTenant('refund-currencies');
const sandboxGone = offerFlowTenant(uniqueTenantId('refund-gone'), ['renewal'], {
  renewal: { recommendationCategory: 'VERL' },
});

let server: OfferFlowsServer;
let stripe: StripeStandin;
let mollie: MollieStandin;

beforeAll(async () => {
  stripe = await startStripeStandin();
  mollie = await startMollieStandin();
  vi.stubEnv(STRIPE_KEY_ENV, 'sk_test_refunds');
  vi.stubEnv(STRIPE_WHSEC_ENV, WEBHOOK_SECRET);
  vi.stubEnv(MOLLIE_KEY_ENV, 'test_refunds');
  vi.stubEnv('PORTAL_STRIPE_API_URL', stripe.url);
  vi.stubEnv('PORTAL_MOLLIE_API_URL', mollie.apiEndpoint);
  // The Mollie SDK speaks only TLS, with its own root certificates: the stand-in's is made at start.
  vi.stubEnv('NODE_TLS_REJECT_UNAUTHORIZED', '0');
  server = await startOfferFlows([
    stripeRejected,
    stripeRefused,
    stripeVoided,
    mollieRejected,
    sandboxLate,
    sandboxBulk,
    sandboxCurrencies,
    sandboxGone,
  ]);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await stripe?.close();
  await mollie?.close();
  vi.unstubAllEnvs();
});

const acceptRenewal = (t: ServerTenant) => server.acceptCardRenewal(t);
/** The provider's id of the page the popup is sent on to (a Checkout Session, a Mollie payment). */
const providerPage = async (url: string) => new URL(await server.openPopup(url)).pathname.split('/').at(-1)!;

const one = async <T>(sql: string, params: unknown[]) => (await server.db.query<T>(sql, params))[0];

const priceOf = async (t: ServerTenant, offerId: string) =>
  (
    await one<{ price: number }>(
      `select price::float8 as price from offers where tenant_id = $1 and id = $2`,
      [t.id, offerId],
    )
  ).price;

const refundsOf = (t: ServerTenant, paymentId: string) =>
  server.db.query<{
    id: string;
    amount: number;
    reason: string;
    status: string;
    attempts: number;
    reference: string | null;
    lastError: string | null;
  }>(
    `select id, amount::float8 as amount, reason, status, attempts, provider_reference as reference, last_error as "lastError"
       from payment_refunds where tenant_id = $1 and payment_id = $2 order by created_at`,
    [t.id, paymentId],
  );

const refundEvents = (t: ServerTenant, paymentId: string) =>
  server.db.query<{ data: Record<string, unknown> }>(
    `select data from account_events where tenant_id = $1 and type = 'payment.refunded' and data->>'paymentId' = $2 order by created_at`,
    [t.id, paymentId],
  );

/** The order system rejects the offer's acceptance (its `offer.accepted` event of this payment). */
async function rejectAcceptance(t: ServerTenant, paymentId: string, subscriptionId: string) {
  const { id } = await one<{ id: string }>(
    `select id from account_events where tenant_id = $1 and type = 'offer.accepted'
        and data->>'paymentId' = $2 and data->>'subscriptionId' = $3`,
    [t.id, paymentId, subscriptionId],
  );
  return acknowledgeChange(
    { db: server.db, now: () => new Date(), mailFrom: 'portal@refunds.test' },
    t,
    '00000000-0000-4000-8000-000000000000',
    id,
    { status: 'rejected', reason: REASON },
  );
}

const refundMails = async () =>
  (await server.mails(SHARED_DEMO_EMAIL)).filter((m) => /refund|Erstattung/i.test(m.subject));

const rejectionMails = async () =>
  (await server.mails(SHARED_DEMO_EMAIL)).filter((m) => /nicht übernommen|not be accepted/.test(m.subject));

/** The orders page's notice of the rejected change: its refund, in the screen's language. */
const rejectedChangeRefund = async (client: Client, eventId: string, locale = 'en-GB') => {
  const answer = await client.get<RejectedChanges>('/rejected-changes', { 'accept-language': locale });
  expect(answer.status).toBe(200);
  return answer.body.find((change) => change.eventId === eventId)?.refund;
};

const validTo = async (client: Client, id: string) =>
  (await server.subscriptions(client)).find((s) => s.id === id)!.validToOnSaleDate;

describe('a paid offer the order system rejects', () => {
  it('is refunded at Stripe for its price, once, with its event and mail', async () => {
    stripe.setWebhook(`${server.baseUrl}/t/${stripeRejected.id}/api/payments/stripe/webhook`, WEBHOOK_SECRET);
    const { client, s, url, paymentId } = await acceptRenewal(stripeRejected);
    const before = await validTo(client, s.id);
    const sessionId = await providerPage(url);
    await stripe.pay(sessionId);
    expect(
      (await one<{ status: string }>(`select status from payments where id = $1`, [paymentId])).status,
    ).toBe('success');
    expect(await refundsOf(stripeRejected, paymentId)).toEqual([]);

    const rejectionMailsBefore = (await rejectionMails()).length;
    const rejected = await rejectAcceptance(stripeRejected, paymentId, s.id);
    expect(rejected.acknowledgement.undone).toBe(true);
    expect(await validTo(client, s.id)).toBe(before);
    const price = await priceOf(stripeRejected, 'OFP-RENEW-BUNDLE');
    const [due] = await refundsOf(stripeRejected, paymentId);
    expect(due).toMatchObject({ amount: price, reason: 'change_rejected', status: 'due', attempts: 0 });
    // The rejection's mail and notice say the money goes back. The order system named no language:
    // the mail is in the one the offer was taken in (an English screen), not the tenant's German.
    const rejectionMail = (await rejectionMails()).slice(rejectionMailsBefore);
    expect(rejectionMail).toHaveLength(1);
    expect(rejectionMail[0].text).toContain(
      `The ${formatMoney(price, 'EUR', 'en-GB')} you paid online for it will be refunded`,
    );
    const eventId = rejected.acknowledgement.eventId;
    expect(await rejectedChangeRefund(client, eventId)).toEqual({
      amount: price,
      currency: 'EUR',
      status: 'due',
    });
    // Nothing goes out before the job asks the provider.
    expect(stripe.refunds.size).toBe(0);
    const mailsBefore = (await refundMails()).length;

    expect(await server.refundPayments()).toMatchObject({ issued: 1, failed: 0, retried: 0 });
    const atStripe = [...stripe.refunds.values()];
    expect(atStripe).toHaveLength(1);
    expect(atStripe[0]).toMatchObject({
      amount: Math.round(price * 100),
      currency: 'eur',
      payment_intent: stripe.sessions.get(sessionId)!.payment_intent,
      reason: 'requested_by_customer',
      metadata: { tenant: stripeRejected.id, paymentId, refundId: due.id },
    });
    expect(await refundsOf(stripeRejected, paymentId)).toEqual([
      expect.objectContaining({ status: 'issued', attempts: 1, reference: atStripe[0].id }),
    ]);
    expect((await refundEvents(stripeRejected, paymentId)).map((e) => e.data)).toEqual([
      expect.objectContaining({
        status: 'issued',
        reason: 'change_rejected',
        amount: price,
        currency: 'EUR',
        subscriptionId: s.id,
        offerId: 'OFP-RENEW-BUNDLE',
        providerReference: atStripe[0].id,
        error: null,
      }),
    ]);
    const mails = await refundMails();
    expect(mails).toHaveLength(mailsBefore + 1);
    const mail = mails.at(-1)!;
    // The payment was made on an English screen: the mail is English, with the amount and the order.
    expect(mail.subject).toBe(`Your refund from ${stripeRejected.name}: €${price.toFixed(2)}`);
    expect(mail.text).toContain('to the card you paid with');
    expect(mail.text).toContain(`(order number ${s.orderNumber})`);
    expect(await rejectedChangeRefund(client, eventId)).toMatchObject({ status: 'issued' });

    // A second round, and the same rejection again: nothing more is refunded.
    expect(await server.refundPayments()).toMatchObject({ issued: 0, failed: 0, retried: 0 });
    await rejectAcceptance(stripeRejected, paymentId, s.id);
    expect(await refundsOf(stripeRejected, paymentId)).toHaveLength(1);
    expect(stripe.refunds.size).toBe(1);
  });

  it('is asked of Mollie again after an outage, and issued once it answers', async () => {
    const { client, s, url, paymentId } = await acceptRenewal(mollieRejected);
    const molliePaymentId = await providerPage(url);
    await mollie.settle(molliePaymentId, 'paid');
    expect(
      (await one<{ status: string }>(`select status from payments where id = $1`, [paymentId])).status,
    ).toBe('success');
    await rejectAcceptance(mollieRejected, paymentId, s.id);
    expect((await server.subscriptions(client)).find((x) => x.id === s.id)).toBeDefined();

    mollie.setUnavailable(true);
    try {
      expect(await server.refundPayments()).toMatchObject({ issued: 0, retried: 1 });
    } finally {
      mollie.setUnavailable(false);
    }
    const [waiting] = await refundsOf(mollieRejected, paymentId);
    expect(waiting).toMatchObject({ status: 'due', attempts: 1 });
    // The provider's answer, kept for the operator.
    expect(waiting.lastError).toMatch(/unavailable/i);
    const { next } = await one<{ next: Date }>(
      `select next_attempt_at as next from payment_refunds where id = $1`,
      [waiting.id],
    );
    expect(next.getTime() - server.clock.getTime()).toBe(REFUND_RETRY_MINUTES[0] * 60_000);
    // Not due yet: the next round leaves it.
    expect(await server.refundPayments()).toMatchObject({ issued: 0, retried: 0 });
    expect(mollie.refunds.size).toBe(0);

    // Its time comes.
    await server.db.query(`update payment_refunds set next_attempt_at = $2 where id = $1`, [
      waiting.id,
      server.clock,
    ]);
    expect(await server.refundPayments()).toMatchObject({ issued: 1 });
    const price = await priceOf(mollieRejected, 'OFP-RENEW-BUNDLE');
    const atMollie = [...mollie.refunds.values()];
    expect(atMollie).toHaveLength(1);
    expect(atMollie[0]).toMatchObject({
      paymentId: molliePaymentId,
      amount: { currency: 'EUR', value: price.toFixed(2) },
      metadata: { tenant: mollieRejected.id, paymentId, refundId: waiting.id },
    });
    expect(await refundsOf(mollieRejected, paymentId)).toEqual([
      expect.objectContaining({ status: 'issued', attempts: 2, reference: atMollie[0].id }),
    ]);
  });

  it('is left failed for the operator when the provider refuses it, and said so in the feed', async () => {
    stripe.setWebhook(`${server.baseUrl}/t/${stripeRefused.id}/api/payments/stripe/webhook`, WEBHOOK_SECRET);
    const { client, s, url, paymentId } = await acceptRenewal(stripeRefused);
    const sessionId = await providerPage(url);
    await stripe.pay(sessionId);
    const rejected = await rejectAcceptance(stripeRefused, paymentId, s.id);
    // Refunded at Stripe's dashboard meanwhile: Stripe refuses a second refund of the same charge.
    const session = stripe.sessions.get(sessionId)!;
    stripe.refunds.set('re_dashboard', {
      id: 're_dashboard',
      object: 'refund',
      amount: session.amount_total!,
      currency: session.currency!,
      payment_intent: session.payment_intent!,
      status: 'succeeded',
      reason: null,
      metadata: {},
      created: 0,
    });
    const mailsBefore = (await refundMails()).length;
    expect(await server.refundPayments()).toMatchObject({ issued: 0, failed: 1, retried: 0 });
    const [failed] = await refundsOf(stripeRefused, paymentId);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, reference: null });
    expect(failed.lastError).toMatch(/already been refunded/);
    expect((await refundEvents(stripeRefused, paymentId)).map((e) => e.data)).toEqual([
      expect.objectContaining({ status: 'failed', providerReference: null, error: failed.lastError }),
    ]);
    // No mail promises money that did not go back; no further attempt. The notice asks the
    // subscriber to get in touch.
    expect(await refundMails()).toHaveLength(mailsBefore);
    expect(await rejectedChangeRefund(client, rejected.acknowledgement.eventId)).toMatchObject({
      status: 'failed',
    });
    expect(await server.refundPayments()).toMatchObject({ issued: 0, failed: 0, retried: 0 });
  });
});

describe('a payment whose offers could no longer apply', () => {
  it('settles as an error and is refunded whole', async () => {
    const { client, s, url, paymentId } = await acceptRenewal(sandboxLate);
    const before = await validTo(client, s.id);
    // The order system switched the subscription to renew itself while the payment page was open.
    await server.db.query(
      `update subscriptions set details = jsonb_set(details, '{renewal,autoRenewal}', 'true') where tenant_id = $1 and id = $2`,
      [sandboxLate.id, s.id],
    );
    const paid = await server.payOnSandbox(url, {
      action: 'pay',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/39',
      holder: 'Demo',
    });
    expect(paid.body.status).toBe('error');
    expect(await validTo(client, s.id)).toBe(before);
    const { amount } = await one<{ amount: number }>(
      `select amount::float8 as amount from payments where id = $1`,
      [paymentId],
    );
    expect(await refundsOf(sandboxLate, paymentId)).toEqual([
      expect.objectContaining({ amount, reason: 'not_applied', status: 'due' }),
    ]);
    expect(await server.refundPayments()).toMatchObject({ issued: 1 });
    const [issued] = await refundsOf(sandboxLate, paymentId);
    expect(issued.reference).toBe(`sandbox_refund_${issued.id}`);
    const mail = (await refundMails()).at(-1)!;
    expect(mail.text).toContain('could no longer be carried out');
  });
});

describe("a payment the portal voided while the provider's page was still open", () => {
  it('is paid for nothing when paid there after all, and refunded whole', async () => {
    stripe.setWebhook(`${server.baseUrl}/t/${stripeVoided.id}/api/payments/stripe/webhook`, WEBHOOK_SECRET);
    const { client, s, url, paymentId } = await acceptRenewal(stripeVoided);
    const before = await validTo(client, s.id);
    const sessionId = await providerPage(url);
    // What a cancellation does to the offers waiting for a payment (cancellationService.ts): the
    // payment is cancelled in the portal, not at the provider, whose page stays open.
    await server.db.query(`update payments set status = 'canceled' where id = $1`, [paymentId]);
    await server.db.query(`update offer_acceptances set status = 'failed' where payment_id = $1`, [
      paymentId,
    ]);
    await stripe.pay(sessionId);
    expect(
      (await one<{ status: string }>(`select status from payments where id = $1`, [paymentId])).status,
    ).toBe('error');
    expect(await validTo(client, s.id)).toBe(before);
    const { amount } = await one<{ amount: number }>(
      `select amount::float8 as amount from payments where id = $1`,
      [paymentId],
    );
    expect(await refundsOf(stripeVoided, paymentId)).toEqual([
      expect.objectContaining({ amount, reason: 'not_applied', status: 'due' }),
    ]);
    // A repeated report refunds nothing twice.
    await stripe.pay(sessionId).catch(() => undefined);
    expect(await refundsOf(stripeVoided, paymentId)).toHaveLength(1);
  });
});

describe('a payment whose subscription the order system deleted while it was open', () => {
  it('pays for nothing, settles as an error and is refunded whole', async () => {
    const { s, url, paymentId } = await acceptRenewal(sandboxGone);
    // The order system deletes the subscription (its acceptances go with it) before the payment.
    await server.db.query(`delete from subscriptions where tenant_id = $1 and id = $2`, [
      sandboxGone.id,
      s.id,
    ]);
    const paid = await server.payOnSandbox(url, {
      action: 'pay',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/39',
      holder: 'Demo',
    });
    expect(paid.body.status).toBe('error');
    const { amount } = await one<{ amount: number }>(
      `select amount::float8 as amount from payments where id = $1`,
      [paymentId],
    );
    expect(await refundsOf(sandboxGone, paymentId)).toEqual([
      expect.objectContaining({ amount, reason: 'not_applied', status: 'due' }),
    ]);
  });
});

describe('a bulk renewal by card and by invoice, rejected item by item', () => {
  it("refunds the card item's price and nothing for the invoice item", async () => {
    const { client, card, invoice, accepted } = await server.acceptBulkByCardAndInvoice(sandboxBulk);
    const paymentId = accepted.body.pendingPayment.id as string;
    const before = { card: await validTo(client, card.s.id), invoice: await validTo(client, invoice.s.id) };
    const paid = await server.payOnSandbox(accepted.body.url, {
      action: 'pay',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/39',
      holder: 'Demo',
    });
    expect(paid.body.status).toBe('success');
    const renewed = { card: await validTo(client, card.s.id), invoice: await validTo(client, invoice.s.id) };
    expect(renewed.card).not.toBe(before.card);
    expect(renewed.invoice).not.toBe(before.invoice);

    // Each item's changes are its own: rejecting one takes back that subscription's renewal alone.
    await rejectAcceptance(sandboxBulk, paymentId, invoice.s.id);
    expect(await refundsOf(sandboxBulk, paymentId)).toEqual([]);
    expect(await validTo(client, invoice.s.id)).toBe(before.invoice);
    expect(await validTo(client, card.s.id)).toBe(renewed.card);
    await rejectAcceptance(sandboxBulk, paymentId, card.s.id);
    expect(await validTo(client, card.s.id)).toBe(before.card);
    expect(await refundsOf(sandboxBulk, paymentId)).toEqual([
      expect.objectContaining({
        amount: await priceOf(sandboxBulk, card.offer.id),
        reason: 'change_rejected',
      }),
    ]);
  });
});

describe('a bulk renewal of offers priced in different currencies', () => {
  it('is refused as one payment, and nothing is taken or changed', async () => {
    const t = sandboxCurrencies;
    const client = await server.signIn(t);
    const byCard: Array<{ s: Subscription; offer: { id: string } }> = [];
    for (const s of (await server.subscriptions(client)).filter(
      (x) => x.isRenewal && x.roles.includes('WE') && x.orderStatus === 'A',
    )) {
      const offers = (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=bulk-renewal`))
        .body;
      const card = offers.find((o) => o.paymentProviders[0].PAYMENT_PROVIDER === 'CREDIT_CARD');
      if (card && !byCard.some((other) => other.offer.id === card.id)) byCard.push({ s, offer: card });
    }
    expect(byCard.length, 'two subscriptions with card offers of their own').toBeGreaterThanOrEqual(2);
    const [first, second] = byCard;
    await server.db.query(`update offers set currency = 'GBP' where tenant_id = $1 and id = $2`, [
      t.id,
      second.offer.id,
    ]);
    const payments = async () =>
      (await one<{ n: number }>(`select count(*)::int as n from payments where tenant_id = $1`, [t.id])).n;
    const before = { payments: await payments(), validTo: await validTo(client, first.s.id) };
    const answer = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: Object.fromEntries(
        [first, second].map(({ s, offer }) => [
          bulkSelectionKey(s),
          { recommendationId: offer.id, paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }] },
        ]),
      ),
    });
    expect([answer.status, answer.body.error?.code]).toEqual([409, 'mixed_currencies']);
    expect(await payments()).toBe(before.payments);
    expect(await validTo(client, first.s.id)).toBe(before.validTo);
    expect(
      (await client.get<any[]>(`/subscriptions/${first.s.id}/recommendations?source=bulk-renewal`)).body.map(
        (o) => o.id,
      ),
    ).toContain(first.offer.id);
  });
});
