/**
 * Payments on a provider's hosted page (Stripe Checkout, Mollie; docs/architecture.md "Payments"), the same
 * for every such provider. The popup opens a page of the portal, `…/api/payments/<provider>/<id>/checkout`
 * with the payment's single-use key, which opens the provider's page and redirects to it; the
 * provider sends the subscriber back to `…/return`, whose page tells the opener the outcome. So the
 * popup starts and ends on the portal's origin, the only origin whose messages the opener trusts
 * (account-flows.md §4 "messages count only from the same origin as the popup URL"), and the popup's
 * messages and the polling of the screens stay what they are with the sandbox.
 *
 * The provider is the truth about money. The portal settles a payment from what the provider
 * answers: its signed webhook (Stripe), its API asked about a payment (the Mollie webhook, the return
 * page, the reconciliation job of reconcilePayments.ts), never from a browser's word. Settling
 * happens once (the payment's row lock, offers/commands/settlement.ts): a repeated or reordered
 * report changes nothing.
 */
import { Router, type Request, type Response } from 'express';
import type { Locale } from '../../engine/domain/locales';
import type { Database } from '../db/database';
import { notFound } from '../http/errors';
import { hashToken } from '../auth/tokens';
import { findPaymentRecord, setProviderPage, type PaymentRow } from '../store/paymentStore';
import { portalUrl } from '../tenancy/portalUrl';
import { requestTenant, tenantContext, type ServerTenant } from '../tenancy/tenantContext';
import {
  RefundRefused,
  type PaymentProvider,
  type ProviderOutcome,
  type SettlePayment,
} from './paymentProvider';
import type { RefundRow } from '../store/paymentRefundStore';
import { isExpired } from './paymentPages';
import { pageLocale } from './sandboxProvider';
import { summarizePayment } from './paymentSummary';
import { HOSTED_RETURN_SCRIPT, hostedReturnPage, type ReturnPageStatus } from './hostedReturnPage';
import type { Logger } from '../http/requestLog';
import { SANDBOX_PAGE_STYLE } from './sandboxPage';

/** Where the provider sends the subscriber and its reports, all on the portal's own address. */
export interface HostedUrls {
  returnUrl: string;
  cancelUrl: string;
  /** The provider's webhook route of this tenant (Mollie takes it with each payment). */
  webhookUrl: string;
}

/** What a hosted provider's page shows and charges, in the page's language. */
export interface HostedPageRequest {
  payment: PaymentRow;
  locale: Locale;
  /** What is paid for, as the page should name it (paymentSummary.ts): order numbers and offers. */
  label: string;
  urls: HostedUrls;
}

/** The provider-specific part: its SDK calls and its webhook. */
export interface HostedGateway {
  readonly id: 'stripe' | 'mollie';
  /** Throws 503 payment_unavailable when the tenant's credentials are missing (no network call). */
  credentials(tenant: ServerTenant): void;
  /** Opens the provider's page for the payment; `reference` names it in webhooks and questions. */
  open(
    tenant: ServerTenant,
    request: HostedPageRequest,
  ): Promise<{ reference: string; url: string; details?: Record<string, unknown> }>;
  /** The state of the payment's page at the provider, and where it is paid while open. */
  look(tenant: ServerTenant, payment: PaymentRow): Promise<{ outcome: ProviderOutcome; url: string | null }>;
  /** Stops the page (expires the session, cancels the payment): what the payment became. */
  stop(tenant: ServerTenant, payment: PaymentRow): Promise<ProviderOutcome>;
  /** Refunds (part of) a paid payment: PaymentProvider.refund. */
  refund(tenant: ServerTenant, payment: PaymentRow, refund: RefundRow): Promise<{ reference: string }>;
  /** The webhook route, `/<id>/webhook`, mounted under /api/payments before the body parsers. */
  webhook(settle: SettlePayment): Router;
}

const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

export function createHostedProvider(
  gateway: HostedGateway,
  deps: { db: Database; now: () => Date; log: Logger },
): PaymentProvider {
  const { db } = deps;
  const base = `/payments/${gateway.id}`;

  /** The payment this page's key opens, or a 404: the key is the capability (its hash is stored). */
  async function paymentOfKey(tenant: ServerTenant, req: Request): Promise<PaymentRow> {
    const key = typeof req.query.key === 'string' ? req.query.key : '';
    const payment = await findPaymentRecord(db, tenant.id, String(req.params.paymentId));
    if (!payment || payment.provider !== gateway.id || !key || payment.secretHash !== hashToken(key))
      throw notFound('There is no such payment.');
    return payment;
  }

  /**
   * What the provider answers, or 'pending' while it cannot be asked (logged): its webhook or the
   * reconciliation job settles the payment later, and the popup's opener polls until then.
   */
  async function asked(tenant: ServerTenant, payment: PaymentRow, question: () => Promise<ProviderOutcome>) {
    try {
      return await question();
    } catch (error) {
      deps.log({
        level: 'warn',
        msg: 'payment provider unreachable',
        tenant: tenant.id,
        provider: gateway.id,
        payment: payment.id,
        error: error instanceof Error ? error.message : String(error),
      });
      return 'pending' as const;
    }
  }

  /** Gives up the payment's page at the provider; a payment that never opened one has nothing to stop. */
  const cancelAtProvider = (tenant: ServerTenant, payment: PaymentRow): Promise<ProviderOutcome> =>
    payment.providerReference ? gateway.stop(tenant, payment) : Promise.resolve('canceled');

  async function settleAndRead(
    settle: SettlePayment,
    tenant: ServerTenant,
    payment: PaymentRow,
    outcome: ProviderOutcome,
  ): Promise<PaymentRow['status']> {
    if (outcome !== 'pending') await settle(tenant, payment.id, outcome);
    return (await findPaymentRecord(db, tenant.id, payment.id))?.status ?? outcome;
  }

  async function sendReturnPage(
    req: Request,
    res: Response,
    tenant: ServerTenant,
    payment: PaymentRow,
    status: ReturnPageStatus,
    httpStatus = 200,
  ) {
    const locale = pageLocale(tenant.locales, req.query.lang, payment.locale);
    res
      .status(httpStatus)
      .type('html')
      .set('content-security-policy', PAGE_POLICY)
      .set('referrer-policy', 'no-referrer')
      .send(
        hostedReturnPage({
          paymentId: payment.id,
          status,
          change: payment.purpose === 'payment-method',
          locale,
          tenantName: tenant.name,
          basePath: tenantContext(res).basePath,
        }),
      );
  }

  return {
    id: gateway.id,

    async createPaymentPage(request) {
      // A tenant without its provider's credentials refuses the payment before anything is accepted.
      gateway.credentials(request.tenant);
      return {
        url: `${request.basePath}api${base}/${encodeURIComponent(request.paymentId)}/checkout?key=${encodeURIComponent(request.secret)}`,
      };
    },

    routes(settle) {
      const router = Router();
      router.get(
        '/payments/hosted.js',
        (_req, res) =>
          void res.type('application/javascript').set('cache-control', 'no-cache').send(HOSTED_RETURN_SCRIPT),
      );
      router.get(
        '/payments/hosted.css',
        (_req, res) => void res.type('text/css').set('cache-control', 'no-cache').send(SANDBOX_PAGE_STYLE),
      );

      // The popup's URL: opens (or reopens) the provider's page and sends the subscriber there.
      router.get(`${base}/:paymentId/checkout`, async (req, res) => {
        const tenant = requestTenant(res);
        const payment = await paymentOfKey(tenant, req);
        if (payment.status !== 'pending') return sendReturnPage(req, res, tenant, payment, payment.status);
        if (isExpired(payment, deps.now())) {
          const outcome = await asked(tenant, payment, () => cancelAtProvider(tenant, payment));
          const status = await settleAndRead(settle, tenant, payment, outcome);
          return sendReturnPage(req, res, tenant, payment, status);
        }
        const locale = pageLocale(tenant.locales, req.query.lang, payment.locale);
        const portal = portalUrl(req, res);
        const key = String(req.query.key);
        const returnUrl = `${portal}api${base}/${encodeURIComponent(payment.id)}/return?key=${encodeURIComponent(key)}&lang=${locale.slice(0, 2)}`;
        const urls: HostedUrls = {
          returnUrl,
          cancelUrl: `${returnUrl}&canceled=1`,
          webhookUrl: `${portal}api${base}/webhook`,
        };
        const summary = await summarizePayment(db, tenant.id, payment, locale);
        const label =
          summary.lines
            .map((line) => [line.offer ?? line.subscription, line.orderNumber].filter(Boolean).join(' · '))
            .join(', ') || payment.description;
        // One page at a time: the row lock keeps two opening requests from opening two pages
        // that could both be paid. The provider's calls happen under it, on purpose.
        let next: { url: string } | { outcome: ProviderOutcome };
        try {
          next = await db.transaction(async (tx): Promise<{ url: string } | { outcome: ProviderOutcome }> => {
            const locked = await findPaymentRecord(tx, tenant.id, payment.id, true);
            if (!locked || locked.status !== 'pending') return { outcome: 'pending' };
            if (locked.providerReference) {
              if (locked.providerDetails.keyHash === locked.secretHash) {
                const seen = await gateway.look(tenant, locked);
                if (seen.outcome !== 'pending' || !seen.url) return { outcome: seen.outcome };
                return { url: seen.url };
              }
              // Reopened with a new key (paymentPages.reopen): the page opened with the old one stops first.
              const stopped = await gateway.stop(tenant, locked);
              if (stopped !== 'canceled') return { outcome: stopped };
            }
            const page = await gateway.open(tenant, { payment: locked, locale, label, urls });
            await setProviderPage(tx, tenant.id, locked.id, page.reference, {
              ...page.details,
              keyHash: locked.secretHash,
            });
            return { url: page.url };
          });
        } catch (error) {
          // The provider refused or is out of reach: nothing was charged, and the page says so. The
          // payment stays pending; closing the popup gives it up (abandon), as with any popup.
          deps.log({
            level: 'warn',
            msg: 'payment page could not be opened',
            tenant: tenant.id,
            provider: gateway.id,
            payment: payment.id,
            error: error instanceof Error ? error.message : String(error),
          });
          return sendReturnPage(req, res, tenant, payment, 'unavailable', 502);
        }
        // The checkout URL carries the page's key: it goes to no one in a Referer.
        if ('url' in next) return void res.set('referrer-policy', 'no-referrer').redirect(303, next.url);
        const status = await settleAndRead(settle, tenant, payment, next.outcome);
        return sendReturnPage(req, res, tenant, payment, status);
      });

      // Where the provider sends the subscriber back: asks the provider, settles, tells the opener.
      router.get(`${base}/:paymentId/return`, async (req, res) => {
        const tenant = requestTenant(res);
        const payment = await paymentOfKey(tenant, req);
        let status = payment.status;
        if (status === 'pending') {
          const outcome = await asked(tenant, payment, async () =>
            req.query.canceled === '1'
              ? cancelAtProvider(tenant, payment)
              : (await gateway.look(tenant, payment)).outcome,
          );
          status = await settleAndRead(settle, tenant, payment, outcome);
        } else if (status === 'canceled' && req.query.canceled !== '1') {
          // Cancelled by the portal while this page was open (a cancellation voids the offers that
          // waited for it): paid here after all, it is paid for nothing and refunded (settlement.ts).
          const outcome = await asked(
            tenant,
            payment,
            async () => (await gateway.look(tenant, payment)).outcome,
          );
          if (outcome === 'success') status = await settleAndRead(settle, tenant, payment, outcome);
        }
        return sendReturnPage(req, res, tenant, payment, status);
      });
      return router;
    },

    callbacks(settle) {
      return gateway.webhook(settle);
    },

    async outcome(tenant, payment) {
      return payment.providerReference ? (await gateway.look(tenant, payment)).outcome : 'pending';
    },

    cancel: cancelAtProvider,

    async refund(tenant, payment, refund) {
      if (!payment.providerReference)
        throw new RefundRefused('The payment never opened a page at its provider.');
      return gateway.refund(tenant, payment, refund);
    },
  };
}
