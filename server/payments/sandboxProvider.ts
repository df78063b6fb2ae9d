/**
 * The built-in sandbox payment provider (docs/architecture.md "Payments"): a real payment page
 * served by the portal, for demos and tests, with test card numbers that succeed, decline or cancel
 * and a PayPal-style approve / cancel. The page posts its outcome to the server (which settles the
 * payment) and then tells the opener by postMessage, addressed to the portal's own origin only; the
 * opener trusts a message only from the popup's origin (account-flows.md §4 "messages count only
 * from the same origin as the popup URL").
 *
 * The page is reached with the payment's secret in its URL (the popup carries no session); the
 * server keeps only the secret's hash, and a settled payment cannot be paid again.
 */
import { Router } from 'express';
import { HttpError, notFound } from '../http/errors';
import { validateBody } from '../http/validateBody';
import { hashToken } from '../auth/tokens';
import type { Database } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import { cancelCauseOf, findPaymentRecord } from '../store/paymentStore';
import { requestTenant, tenantContext, type ServerTenant } from '../tenancy/tenantContext';
import { paymentProviderOf } from '../../tenant/paymentProviderRules';
import type { PaymentProvider, SettledStatus, SettlePayment } from './paymentProvider';
import { isExpired } from './paymentPages';
import { SANDBOX_PAGE_SCRIPT, SANDBOX_PAGE_STYLE, sandboxPage } from './sandboxPage';
import { summarizePayment } from './paymentSummary';

/** docs/architecture.md "Payments": the sandbox's test cards. Any other number is declined as unknown. */
export const SANDBOX_TEST_CARDS: Readonly<Record<string, SettledStatus>> = {
  '4242424242424242': 'success',
  '5555555555554444': 'success',
  '4000000000000002': 'error',
  '4000000000009995': 'error',
  '4000000000003220': 'canceled',
};

/**
 * The page's language: the opener's (`lang`, as `en` or `en-GB`, which the portal adds to the
 * popup URL, engine/account/offers/paymentWatch.ts popupUrlInLanguage) when the tenant offers it,
 * else the language the payment was started in. Not the popup's own Accept-Language: that is the
 * browser's, not the screen language the subscriber chose.
 */
export function pageLocale(offered: readonly string[], lang: unknown, paymentLocale: Locale): Locale {
  const language = typeof lang === 'string' ? lang.slice(0, 2).toLowerCase() : '';
  return (
    (offered.find((locale) => language !== '' && locale.slice(0, 2).toLowerCase() === language) as
      Locale | undefined) ?? paymentLocale
  );
}

/** The card's expiry 'MM/YY' lies in this or a later month. */
function notExpired(expiry: string, now: Date): boolean {
  const [month, year] = expiry.split('/').map(Number);
  const endYear = 2000 + year;
  return (
    endYear > now.getUTCFullYear() || (endYear === now.getUTCFullYear() && month >= now.getUTCMonth() + 1)
  );
}

/** What the sandbox decides for a submitted page. */
export function sandboxOutcome(
  input: {
    action: 'pay' | 'approve' | 'cancel';
    method: 'CREDIT_CARD' | 'PAYPAL';
    cardNumber?: string;
    expiry?: string;
    holder?: string;
  },
  now: Date,
): SettledStatus {
  if (input.action === 'cancel') return 'canceled';
  if (input.method === 'PAYPAL') {
    if (input.action !== 'approve')
      throw new HttpError(400, 'validation_failed', 'A PayPal payment is approved or cancelled.');
    return 'success';
  }
  if (input.action !== 'pay')
    throw new HttpError(400, 'validation_failed', 'A card payment is paid or cancelled.');
  const number = (input.cardNumber ?? '').replace(/\s/g, '');
  // Typed as a card's face shows it ("12/29") or without the slash ("1229"), as card forms take it.
  const expiry = (input.expiry ?? '').replace(/\s/g, '').replace(/^(\d{2})(\d{2})$/, '$1/$2');
  // Codes the page names in its own language (sandboxPage.ts fieldTexts).
  const fields: Record<string, 'invalid' | 'expired' | 'required'> = {};
  if (!/^\d{12,19}$/.test(number)) fields.cardNumber = 'invalid';
  if (!/^(0[1-9]|1[0-2])\/\d{2}$/.test(expiry)) fields.expiry = 'invalid';
  else if (!notExpired(expiry, now)) fields.expiry = 'expired';
  if (!input.holder?.trim()) fields.holder = 'required';
  if (Object.keys(fields).length > 0)
    throw new HttpError(400, 'validation_failed', 'Please check the card details.', { fields });
  return SANDBOX_TEST_CARDS[number] ?? 'error';
}

export function createSandboxProvider(deps: { db: Database; now: () => Date }): PaymentProvider {
  return {
    id: 'sandbox',

    async createPaymentPage(request) {
      return {
        url: `${request.basePath}api/payments/sandbox/${encodeURIComponent(request.paymentId)}?key=${encodeURIComponent(request.secret)}`,
      };
    },

    routes(settle: SettlePayment) {
      const router = Router();
      // The page has its own policy: its script and style are files of this router, nothing inline.
      const pagePolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

      router.get(
        '/payments/sandbox.js',
        (_req, res) =>
          void res.type('application/javascript').set('cache-control', 'no-cache').send(SANDBOX_PAGE_SCRIPT),
      );
      router.get(
        '/payments/sandbox.css',
        (_req, res) => void res.type('text/css').set('cache-control', 'no-cache').send(SANDBOX_PAGE_STYLE),
      );

      router.get('/payments/sandbox/:paymentId', async (req, res) => {
        const tenant = requestTenant(res);
        const key = typeof req.query.key === 'string' ? req.query.key : '';
        const payment = await findPaymentRecord(deps.db, tenant.id, String(req.params.paymentId));
        if (
          !payment ||
          !takesSandbox(tenant) ||
          payment.provider !== 'sandbox' ||
          payment.secretHash !== hashToken(key)
        )
          throw notFound('There is no such payment.');
        const locale = pageLocale(tenant.locales, req.query.lang, payment.locale);
        const summary = await summarizePayment(deps.db, tenant.id, payment, locale);
        res
          .status(200)
          .type('html')
          .set('content-security-policy', pagePolicy)
          .set('referrer-policy', 'no-referrer')
          .send(
            sandboxPage({
              payment,
              summary,
              locale,
              tenantName: tenant.name,
              basePath: tenantContext(res).basePath,
              key,
            }),
          );
      });

      router.post(
        '/payments/sandbox/:paymentId',
        validateBody('sandbox-payment-request'),
        async (req, res) => {
          const tenant = requestTenant(res);
          const paymentId = String(req.params.paymentId);
          const payment = await findPaymentRecord(deps.db, tenant.id, paymentId);
          if (
            !payment ||
            !takesSandbox(tenant) ||
            payment.provider !== 'sandbox' ||
            payment.secretHash !== hashToken(String(req.body.key))
          )
            throw notFound('There is no such payment.');
          if (payment.status !== 'pending') {
            const because = cancelCauseOf(payment);
            res.json({ status: payment.status, ...(because && { canceledBecause: because }) });
            return;
          }
          // An expired page pays nothing: the payment is cancelled instead.
          const status = isExpired(payment, deps.now())
            ? 'canceled'
            : sandboxOutcome({ ...req.body, method: payment.method }, deps.now());
          await settle(tenant, paymentId, status);
          const settled = await findPaymentRecord(deps.db, tenant.id, paymentId);
          // A cancellation may have voided it meanwhile: the page then says why, as the opener does.
          const because = settled && cancelCauseOf(settled);
          res.json({ status: settled?.status ?? status, ...(because && { canceledBecause: because }) });
        },
      );
      return router;
    },

    // No money moved, so none goes back: the refund is recorded with a reference of its own, and
    // what follows it (the event, the mail) is the same as with a provider.
    async refund(_tenant, _payment, refund) {
      return { reference: `sandbox_refund_${refund.id}` };
    },
  };
}

/**
 * Whether the tenant pays through the sandbox now: a sandbox payment of a tenant that has since
 * named a real provider (or is no demo and names none) settles nothing, since its page takes test
 * cards that move no money (tenant/paymentProviderRules.ts paymentProviderOf).
 */
function takesSandbox(tenant: ServerTenant): boolean {
  return paymentProviderOf(tenant) === 'sandbox';
}
