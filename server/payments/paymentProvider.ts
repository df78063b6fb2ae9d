/**
 * The payment adapter (docs/architecture.md "Payments"): a real sandbox or a provider behind one
 * interface. Accepting a paid
 * offer creates a payment row (server/store/offerStore.ts) and asks the tenant's provider for the
 * page the subscriber pays on; the portal opens it in a popup (account-flows.md §4 "Offer
 * acceptance"). The provider later reports the outcome — by its callback route or by its own page —
 * through `settle`, which moves the payment from pending to success, error or canceled and applies
 * what was bought in the same transaction. The built-in sandbox serves its own page
 * (sandboxProvider.ts); Stripe Checkout and Mollie are hosted pages behind hostedCheckout.ts
 * (stripeGateway.ts, mollieGateway.ts). Another provider is one more implementation of this
 * interface, listed in server/payments/paymentProviders.ts (docs/architecture.md "Payments").
 */
import type { Router } from 'express';
import type { Locale } from '../../engine/domain/locales';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { PaymentRow } from '../store/paymentStore';
import type { RefundRow } from '../store/paymentRefundStore';

export type SettledStatus = 'success' | 'error' | 'canceled';

export interface PaymentPageRequest {
  tenant: ServerTenant;
  paymentId: string;
  /** A single-use capability for this payment (its hash is stored); only its holder may pay it. */
  secret: string;
  amount: number;
  currency: string;
  description: string;
  method: 'CREDIT_CARD' | 'PAYPAL';
  locale: Locale;
  /** The tenant portal's base path (`/` or `/t/<tenant>/`), for URLs on the portal's origin. */
  basePath: string;
  /** What it pays for: offers are charged, a payment-method change registers a card or PayPal. */
  purpose: PaymentRow['purpose'];
}

/** Moves a pending payment to its outcome and applies it; false when it was not pending (already settled). */
export type SettlePayment = (
  tenant: ServerTenant,
  paymentId: string,
  status: SettledStatus,
) => Promise<boolean>;

export interface PaymentProvider {
  /** The name tenants choose in `payments.provider`. */
  readonly id: string;
  /** The page the subscriber pays on, opened in the popup (640 × 640, §9). */
  createPaymentPage(request: PaymentPageRequest): Promise<{ url: string }>;
  /** The provider's own routes under each tenant's /api (pages, return pages); they call `settle`. */
  routes(settle: SettlePayment): Router;
  /**
   * Routes the provider's servers call (webhooks), mounted under each tenant's /api/payments before
   * the JSON parser and the XSRF check: they read the raw body a signature covers.
   */
  callbacks?(settle: SettlePayment): Router;
  /** What the provider says a pending payment became (the reconciliation job); 'pending' while it is open. */
  outcome?(tenant: ServerTenant, payment: PaymentRow): Promise<ProviderOutcome>;
  /**
   * Gives up a pending payment at the provider (the popup was closed, its page expired): 'canceled'
   * once it can no longer be paid, or what it became first (paid a moment ago: 'success'), or
   * 'pending' when the provider cannot stop it now (a payment being processed).
   */
  cancel?(tenant: ServerTenant, payment: PaymentRow): Promise<ProviderOutcome>;
  /**
   * Gives money of a paid payment back (docs/architecture.md "Payments": "Refunds"): the provider's
   * id of the refund once it took it. The refund's id is the idempotency key, so a retry after a
   * lost answer refunds once. Throws RefundRefused when the provider will not (the job stops
   * trying), anything else when it could not be asked (the job tries again later).
   */
  refund(tenant: ServerTenant, payment: PaymentRow, refund: RefundRow): Promise<{ reference: string }>;
}

/** The provider refused a refund for good (nothing left to refund, a payment it does not know). */
export class RefundRefused extends Error {
  override name = 'RefundRefused';
}

/** A payment's state at its provider: settled one way, or still open. */
export type ProviderOutcome = SettledStatus | 'pending';
