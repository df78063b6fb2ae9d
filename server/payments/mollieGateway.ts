/**
 * Mollie behind the hosted-page provider (hostedCheckout.ts; docs/architecture.md "Payments"), on the
 * official `@mollie/api-client` SDK. An offer is a payment with `method` creditcard or paypal, the amount as
 * Mollie's decimal string in the tenant's currency, `redirectUrl` back into the popup and
 * `webhookUrl` to the portal. Registering a card or PayPal for the payment method change is a first
 * payment (`sequenceType: 'first'`) of a Mollie customer made for it, which leaves the mandate later
 * charges use; it charges 0.00, which Mollie allows for cards as a first payment.
 *
 * Mollie's webhook carries only a payment id and no signature: the portal asks Mollie's API for that
 * payment and settles from the answer, never from the request. An id that names no payment of the
 * tenant is refused (404) before Mollie is asked anything.
 */
import express, { Router } from 'express';
import {
  MollieApiError,
  createMollieClient,
  RefundStatus,
  type Refund,
  Locale as MollieLocale,
  PaymentMethod,
  PaymentStatus,
  SequenceType,
  type Payment,
} from '@mollie/api-client';
import type { Database } from '../db/database';
import { badRequest, HttpError, notFound } from '../http/errors';
import { guardRequestInput } from '../http/inputGuard';
import { validateBody } from '../http/validateBody';
import type { MollieWebhook } from '../../schemas/generated/mollie-webhook';
import { findPaymentByReference, type PaymentRow } from '../store/paymentStore';
import { requestTenant, type ServerTenant } from '../tenancy/tenantContext';
import { RefundRefused, type ProviderOutcome, type SettlePayment } from './paymentProvider';
import type { HostedGateway } from './hostedCheckout';
import { apiUrlOverride, mollieApiKey } from './providerCredentials';
import { stderrLog } from '../http/requestLog';
import type { Locale } from '../../engine/domain/locales';

/** Mollie's page language per portal language: a language the portal adds must name its own. */
const MOLLIE_LOCALES: Record<Locale, MollieLocale> = {
  'de-DE': MollieLocale.de_DE,
  'en-GB': MollieLocale.en_GB,
};

type MollieClient = ReturnType<typeof createMollieClient>;

const clients = new Map<string, MollieClient>();

export function mollieClient(apiKey: string): MollieClient {
  let client = clients.get(apiKey);
  if (!client) {
    const base = apiUrlOverride('PORTAL_MOLLIE_API_URL');
    client = createMollieClient({
      apiKey,
      versionStrings: 'PublisherSelfServicePortal/1',
      ...(base && { apiEndpoint: base.href.endsWith('/') ? base.href : `${base.href}/` }),
    });
    clients.set(apiKey, client);
  }
  return client;
}

/** Mollie's statuses as the portal's outcomes (docs.mollie.com "Payment status changes"). */
export function mollieOutcome(status: string): ProviderOutcome {
  switch (status) {
    case PaymentStatus.paid:
      return 'success';
    case PaymentStatus.failed:
      return 'error';
    case PaymentStatus.canceled:
    case PaymentStatus.expired:
      return 'canceled';
    default:
      // open, pending, authorized: not decided yet
      return 'pending';
  }
}

/**
 * A success counts only for the amount and currency the portal asked (open() made the payment):
 * one that says otherwise, which nothing of the portal's makes, settles as an error, so no offer is
 * applied for a payment it was not paid.
 */
export function paidAsAsked(
  outcome: ProviderOutcome,
  found: Pick<Payment, 'amount'>,
  payment: Pick<PaymentRow, 'id' | 'amount' | 'currency'>,
): ProviderOutcome {
  if (outcome !== 'success') return outcome;
  const asked =
    found.amount.value === payment.amount.toFixed(2) && found.amount.currency === payment.currency;
  if (asked) return outcome;
  // Money may have moved: the operator's to look into (and refund) at Mollie.
  stderrLog({
    level: 'error',
    msg: 'payment paid at another amount or currency than asked',
    provider: 'mollie',
    paymentId: payment.id,
    asked: `${payment.amount.toFixed(2)} ${payment.currency}`,
    paid: `${found.amount.value} ${found.amount.currency}`,
  });
  return 'error';
}

export function createMollieGateway(deps: { db: Database }): HostedGateway {
  const client = (tenant: ServerTenant) => mollieClient(mollieApiKey(tenant));
  const get = (tenant: ServerTenant, payment: PaymentRow): Promise<Payment> =>
    client(tenant).payments.get(payment.providerReference!);

  return {
    id: 'mollie',

    credentials(tenant) {
      mollieApiKey(tenant);
    },

    async open(tenant, { payment, locale, label, urls }) {
      const mollie = client(tenant);
      const method = payment.method === 'PAYPAL' ? PaymentMethod.paypal : PaymentMethod.creditcard;
      const registering = payment.purpose === 'payment-method';
      // A mandate belongs to a customer: one is made for the registration, with nothing personal in it.
      const customer = registering
        ? await mollie.customers.create({
            metadata: { tenant: tenant.id, paymentId: payment.id },
            locale: MOLLIE_LOCALES[locale],
          })
        : null;
      const created = await mollie.payments.create({
        amount: { currency: payment.currency, value: payment.amount.toFixed(2) },
        description: label.slice(0, 255),
        redirectUrl: urls.returnUrl,
        cancelUrl: urls.cancelUrl,
        webhookUrl: urls.webhookUrl,
        method,
        locale: MOLLIE_LOCALES[locale],
        metadata: { paymentId: payment.id, tenant: tenant.id },
        ...(customer && { customerId: customer.id, sequenceType: SequenceType.first }),
        // A retry after a lost answer gets the same payment back.
        idempotencyKey: `portal-${payment.id}-${payment.secretHash.slice(0, 16)}`,
      });
      const url = created.getCheckoutUrl();
      if (!url) throw badRequest('payment_unavailable', 'Mollie answered a payment without a checkout page.');
      return { reference: created.id, url, details: customer ? { customerId: customer.id } : {} };
    },

    async look(tenant, payment) {
      const found = await get(tenant, payment);
      const outcome = paidAsAsked(mollieOutcome(found.status), found, payment);
      return { outcome, url: found.status === PaymentStatus.open ? found.getCheckoutUrl() : null };
    },

    async stop(tenant, payment) {
      const found = await get(tenant, payment);
      if (found.status !== PaymentStatus.open || !found.isCancelable)
        return paidAsAsked(mollieOutcome(found.status), found, payment);
      const cancelled = await client(tenant).payments.cancel(found.id);
      return paidAsAsked(mollieOutcome(cancelled.status), cancelled, payment);
    },

    // A refund of the payment in Mollie's decimal string (docs.mollie.com/reference/create-refund).
    async refund(tenant, payment, refund) {
      let created: Refund;
      try {
        created = await client(tenant).paymentRefunds.create({
          paymentId: payment.providerReference!,
          amount: { currency: refund.currency, value: refund.amount.toFixed(2) },
          description: `Refund ${payment.id}`.slice(0, 255),
          metadata: { tenant: tenant.id, paymentId: payment.id, refundId: refund.id },
          idempotencyKey: `portal-refund-${refund.id}`,
        });
      } catch (error) {
        // Mollie refused what was asked (4xx: more than is left, a payment not paid): asking again changes nothing.
        const status = error instanceof MollieApiError ? error.statusCode : undefined;
        if (status !== undefined && status >= 400 && status < 500 && status !== 429)
          throw new RefundRefused(error instanceof Error ? error.message : String(error));
        throw error;
      }
      if (created.status === RefundStatus.failed || created.status === RefundStatus.canceled)
        throw new RefundRefused(`Mollie answered the refund ${created.id} as ${created.status}.`);
      return { reference: created.id };
    },

    webhook(settle: SettlePayment) {
      const router = Router();
      router.post(
        '/mollie/webhook',
        express.urlencoded({ extended: false, limit: '8kb' }),
        // Mollie posts a form; a JSON body is read too. Either passes the API's input guard and the
        // body's schema, so its problems are named like any API body's.
        express.json({ limit: '8kb' }),
        guardRequestInput,
        validateBody('mollie-webhook'),
        async (req, res) => {
          const tenant = requestTenant(res);
          if (tenant.payments?.provider !== 'mollie')
            throw notFound('This portal takes no payments by Mollie.');
          const { id } = req.body as MollieWebhook;
          const payment = await findPaymentByReference(deps.db, tenant.id, 'mollie', id);
          if (!payment) throw notFound('There is no such payment.');
          // The request says only "look at tr_…": what happened is Mollie's answer.
          // Mollie out of reach: 503, and Mollie calls again later (it retries what is not answered 2xx).
          const found = await get(tenant, payment).catch((error: unknown) => {
            stderrLog({
              level: 'error',
              msg: 'Mollie could not be asked about a payment',
              tenant: tenant.id,
              error: error instanceof Error ? error.message : String(error),
            });
            throw new HttpError(503, 'payment_unavailable', 'Mollie could not be asked; call again later.');
          });
          if (found.metadata === null || (found.metadata as { paymentId?: unknown }).paymentId !== payment.id)
            throw notFound('There is no such payment.');
          const outcome = paidAsAsked(mollieOutcome(found.status), found, payment);
          if (outcome !== 'pending') await settle(tenant, payment.id, outcome);
          res.status(200).type('text/plain').send('ok');
        },
      );
      return router;
    },
  };
}
