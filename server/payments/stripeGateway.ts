/**
 * Stripe Checkout behind the hosted-page provider (hostedCheckout.ts; docs/architecture.md "Payments"), on
 * the official `stripe` SDK. An offer is paid in a Checkout Session in `payment` mode (one line with the
 * amount in minor units and the tenant's currency, card or PayPal as its payment method type); a card
 * or PayPal is registered for the payment method change in `setup` mode. The session carries the
 * portal's payment id as `client_reference_id` and in its metadata, with the tenant's id.
 *
 * Settled from the signed webhook (`checkout.session.completed`, `…async_payment_succeeded`,
 * `…async_payment_failed`, `checkout.session.expired`), verified with the SDK's
 * `webhooks.constructEvent` against the tenant's endpoint secret; the return page and the
 * reconciliation job ask the API for the session instead.
 */
import express, { Router } from 'express';
import Stripe from 'stripe';
import type { Database } from '../db/database';
import { HttpError, notFound } from '../http/errors';
import { findPaymentRecord, type PaymentRow } from '../store/paymentStore';
import { requestTenant, type ServerTenant } from '../tenancy/tenantContext';
import { RefundRefused, type ProviderOutcome, type SettlePayment } from './paymentProvider';
import type { HostedGateway } from './hostedCheckout';
import { PAYMENT_EXPIRY_MINUTES } from './paymentPages';
import { apiUrlOverride, stripeCredentials } from './providerCredentials';
import type { Locale } from '../../engine/domain/locales';
import { stderrLog } from '../http/requestLog';

/** Stripe Checkout's page language per portal language: a language the portal adds must name its own. */
const STRIPE_LOCALES: Record<Locale, Stripe.Checkout.SessionCreateParams.Locale> = {
  'de-DE': 'de',
  'en-GB': 'en-GB',
};

/** Stripe's own bounds of `expires_at`: at least 30 minutes after the session is created. */
const STRIPE_MIN_SESSION_MINUTES = 30;

/** One client per secret key (the SDK keeps its agent and retries per client). */
const clients = new Map<string, Stripe>();

export function stripeClient(secretKey: string): Stripe {
  let client = clients.get(secretKey);
  if (!client) {
    const base = apiUrlOverride('PORTAL_STRIPE_API_URL');
    client = new Stripe(secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'publisher-self-service-portal' },
      ...(base && {
        host: base.hostname,
        port: base.port || (base.protocol === 'https:' ? 443 : 80),
        protocol: base.protocol === 'https:' ? 'https' : 'http',
      }),
    });
    clients.set(secretKey, client);
  }
  return client;
}

/** What a session says of its payment: paid (or nothing to pay), still open, or expired. */
export function sessionOutcome(
  session: Pick<Stripe.Checkout.Session, 'status' | 'payment_status'>,
): ProviderOutcome {
  if (session.status === 'expired') return 'canceled';
  if (session.status === 'complete')
    // An asynchronous method completes the session unpaid; its own event settles it later.
    return session.payment_status === 'unpaid' ? 'pending' : 'success';
  return 'pending';
}

const SETTLING_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

function eventOutcome(type: string, session: Stripe.Checkout.Session): ProviderOutcome {
  if (type === 'checkout.session.async_payment_succeeded') return 'success';
  if (type === 'checkout.session.async_payment_failed') return 'error';
  return sessionOutcome(session);
}

/**
 * A success counts only for the amount and currency the portal asked (open() made the session): a
 * session that says otherwise, which nothing of the portal's makes, settles as an error, so no offer
 * is applied for a payment it was not paid. A registration (mode setup) pays nothing.
 */
export function paidAsAsked(
  outcome: ProviderOutcome,
  session: Pick<Stripe.Checkout.Session, 'mode' | 'amount_total' | 'currency'>,
  payment: Pick<PaymentRow, 'id' | 'amount' | 'currency'>,
): ProviderOutcome {
  if (outcome !== 'success' || session.mode !== 'payment') return outcome;
  const asked =
    session.amount_total === Math.round(payment.amount * 100) &&
    session.currency?.toLowerCase() === payment.currency.toLowerCase();
  if (asked) return outcome;
  // Money may have moved: the operator's to look into (and refund) at the provider.
  stderrLog({
    level: 'error',
    msg: 'payment paid at another amount or currency than asked',
    provider: 'stripe',
    paymentId: payment.id,
    asked: `${Math.round(payment.amount * 100)} ${payment.currency.toLowerCase()}`,
    paid: `${session.amount_total} ${session.currency}`,
  });
  return 'error';
}

export function createStripeGateway(deps: { db: Database; now: () => Date }): HostedGateway {
  const client = (tenant: ServerTenant) => stripeClient(stripeCredentials(tenant).secretKey);

  async function retrieve(tenant: ServerTenant, payment: PaymentRow): Promise<Stripe.Checkout.Session> {
    return client(tenant).checkout.sessions.retrieve(payment.providerReference!);
  }

  return {
    id: 'stripe',

    credentials(tenant) {
      stripeCredentials(tenant);
    },

    async open(tenant, { payment, locale, label, urls }) {
      const currency = payment.currency.toLowerCase();
      const created = new Date(payment.createdAt).getTime();
      // The session lives as long as the portal's payment page (PAYMENT_EXPIRY_MINUTES), and at
      // least as long as Stripe asks.
      const expiresAt = Math.ceil(
        Math.max(
          created + PAYMENT_EXPIRY_MINUTES * 60_000,
          deps.now().getTime() + (STRIPE_MIN_SESSION_MINUTES + 1) * 60_000,
        ) / 1000,
      );
      const common: Stripe.Checkout.SessionCreateParams = {
        client_reference_id: payment.id,
        metadata: { paymentId: payment.id, tenant: tenant.id, purpose: payment.purpose },
        success_url: urls.returnUrl,
        cancel_url: urls.cancelUrl,
        locale: STRIPE_LOCALES[locale],
        expires_at: expiresAt,
        // The API version the SDK pins (2026-10-28) filters the eligible methods by this list.
        allowed_payment_method_types: [payment.method === 'PAYPAL' ? 'paypal' : 'card'],
      };
      const params: Stripe.Checkout.SessionCreateParams =
        payment.purpose === 'payment-method'
          ? { ...common, mode: 'setup', currency }
          : {
              ...common,
              mode: 'payment',
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency,
                    // Minor units: both currencies the portal charges (EUR, GBP) have two decimals.
                    unit_amount: Math.round(payment.amount * 100),
                    product_data: { name: label.slice(0, 250) },
                  },
                },
              ],
            };
      // The same key for the same page: a retry after a lost answer gets the same session back (the
      // expiry is part of the request, so part of the key).
      const session = await client(tenant).checkout.sessions.create(params, {
        idempotencyKey: `portal-${payment.id}-${payment.secretHash.slice(0, 16)}-${expiresAt}`,
      });
      if (!session.url)
        throw new HttpError(502, 'payment_unavailable', 'Stripe answered a session without a page.');
      return { reference: session.id, url: session.url };
    },

    async look(tenant, payment) {
      const session = await retrieve(tenant, payment);
      const outcome = paidAsAsked(sessionOutcome(session), session, payment);
      return { outcome, url: outcome === 'pending' && session.status === 'open' ? session.url : null };
    },

    async stop(tenant, payment) {
      const session = await retrieve(tenant, payment);
      if (session.status !== 'open') return paidAsAsked(sessionOutcome(session), session, payment);
      try {
        const expired = await client(tenant).checkout.sessions.expire(session.id);
        return paidAsAsked(sessionOutcome(expired), expired, payment);
      } catch (error) {
        // Completed between the two calls: what it became is the answer.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          const completed = await retrieve(tenant, payment);
          return paidAsAsked(sessionOutcome(completed), completed, payment);
        }
        throw error;
      }
    },

    // A Refund of the session's PaymentIntent in minor units (docs.stripe.com/api/refunds/create).
    async refund(tenant, payment, refund) {
      const session = await retrieve(tenant, payment);
      const intent =
        typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
      if (session.mode !== 'payment' || !intent)
        throw new RefundRefused('The Checkout Session has no payment to refund.');
      let created: Stripe.Refund;
      try {
        created = await client(tenant).refunds.create(
          {
            payment_intent: intent,
            amount: Math.round(refund.amount * 100),
            reason: 'requested_by_customer',
            metadata: { tenant: tenant.id, paymentId: payment.id, refundId: refund.id },
          },
          { idempotencyKey: `portal-refund-${refund.id}` },
        );
      } catch (error) {
        // Refused for what was asked (more than is left, a charge disputed): asking again changes nothing.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new RefundRefused(error.message);
        throw error;
      }
      if (created.status === 'failed' || created.status === 'canceled')
        throw new RefundRefused(`Stripe answered the refund ${created.id} as ${created.status}.`);
      return { reference: created.id };
    },

    webhook(settle: SettlePayment) {
      const router = Router();
      // The signature covers the bytes as sent: the body stays raw.
      router.post('/stripe/webhook', express.raw({ type: () => true, limit: '512kb' }), async (req, res) => {
        const tenant = requestTenant(res);
        if (tenant.payments?.provider !== 'stripe')
          throw notFound('This portal takes no payments by Stripe.');
        const { webhookSecret } = stripeCredentials(tenant);
        const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        let event: Stripe.Event;
        try {
          event = client(tenant).webhooks.constructEvent(
            body,
            req.headers['stripe-signature'] ?? '',
            webhookSecret,
          );
        } catch {
          throw new HttpError(400, 'invalid_signature', 'The Stripe-Signature header does not verify.');
        }
        if (!SETTLING_EVENTS.has(event.type)) return void res.json({ received: true, ignored: 'event type' });
        const session = event.data.object as Stripe.Checkout.Session;
        const paymentId = session.client_reference_id ?? session.metadata?.paymentId ?? '';
        const payment = paymentId ? await findPaymentRecord(deps.db, tenant.id, paymentId) : null;
        // A session of another tenant, or of no payment of this one, settles nothing here.
        if (!payment || payment.provider !== 'stripe' || session.metadata?.tenant !== tenant.id)
          throw notFound('There is no such payment.');
        // A page the portal replaced (reopened with a new key, hostedCheckout.ts) was stopped first.
        if (payment.providerReference !== session.id)
          return void res.json({ received: true, ignored: "not the payment's current session" });
        const outcome = paidAsAsked(eventOutcome(event.type, session), session, payment);
        if (outcome !== 'pending') await settle(tenant, payment.id, outcome);
        res.json({ received: true });
      });
      return router;
    },
  };
}
