/**
 * The payment adapter (issue 11 "Payments: a real sandbox behind an adapter"). Accepting a paid
 * offer creates a payment row (server/store/offerStore.ts) and asks the tenant's provider for the
 * page the subscriber pays on; the portal opens it in a popup (account-flows.md §4 "Offer
 * acceptance"). The provider later reports the outcome — by its callback route or by its own page —
 * through `settle`, which moves the payment from pending to success, error or canceled and applies
 * what was bought in the same transaction. Plugging in Stripe Checkout, Adyen or PayPal means one
 * more implementation of this interface, listed in PAYMENT_PROVIDERS (README "Payments").
 */
import type { Router } from 'express';
import type { Locale } from '../../engine/domain/locales';
import type { ServerTenant } from '../tenancy/tenantContext';

export type SettledStatus = 'success' | 'error' | 'canceled';

export interface PaymentPageRequest {
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
  /** The provider's own routes under each tenant's /api (callbacks, return pages); they call `settle`. */
  routes(settle: SettlePayment): Router;
}
