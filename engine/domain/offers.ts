/**
 * Offer rules shared by the renewal, bulk renewal, upgrade and cancellation screens and the server
 * (account-flows.md §3 Recommendation and bulk selection, §4 "Offer acceptance", §5, §9).
 */

/** §3: how an offer is paid; CREDIT_CARD and PAYPAL go through the payment page (a popup). */
export type PaymentProvider = 'INVOICE' | 'DIRECT_DEBIT' | 'CREDIT_CARD' | 'PAYPAL';
export const PAYMENT_PROVIDERS: readonly PaymentProvider[] = ['INVOICE', 'DIRECT_DEBIT', 'CREDIT_CARD', 'PAYPAL'];
export const paysOnline = (provider: PaymentProvider) => provider === 'CREDIT_CARD' || provider === 'PAYPAL';

/** §9 "Default categories": UPGRD for upgrade; renewal takes the tenant's category. */
export const UPGRADE_CATEGORY = 'UPGRD';
export const DEFAULT_RENEWAL_CATEGORY = 'RENEW';

/** §9: "offer types BD and BU are bundles, DD and RN unlabelled". */
export const isBundleOffer = (offerType: string | undefined) => offerType === 'BD' || offerType === 'BU';

export type UpgradeTime = 'NOW' | 'NEXT_CYCLE';

/**
 * The recommendation category of a request: the query's category first, then the tenant's
 * (renewal config, upgrade config), then the default (portal-core.md §7 GET recommendations).
 */
export function offerCategory(source: 'renewal' | 'upgrade' | 'cancellation', query: string | undefined, tenantCategory: string | undefined): string {
  if (source === 'cancellation') return 'CANCEL';
  return query || tenantCategory || (source === 'upgrade' ? UPGRADE_CATEGORY : DEFAULT_RENEWAL_CATEGORY);
}

/** §5 Bulk renewal: the conflict message's condition — a credit-card and a direct-debit choice together. */
export function hasPaymentConflict(providers: readonly PaymentProvider[]): boolean {
  return providers.includes('CREDIT_CARD') && providers.includes('DIRECT_DEBIT');
}
export const BULK_PAYMENT_CONFLICT_MESSAGE = "The payment methods 'Credit Card' and 'Direct Debit' cannot be used together.";

/** §3 bulk selection key: client id (the first 3 characters of the subscription id) plus order number. */
export const bulkSelectionKey = (s: { id: string; orderNumber: string }) => `${s.id.slice(0, 3)}${s.orderNumber}`;

/** §5 Bulk renewal: e-mail max 35, last name max 35, zip code 4 to 10. */
export const BULK_LOGIN_LIMITS = { email: 35, lastName: 35, zipMin: 4, zipMax: 10 } as const;

/** §5 Renewal/upgrade: order number 10 digits starting with 4. */
export const isRenewalOrderNumber = (value: string) => /^4\d{9}$/.test(value);

/** §9: payment poll interval 1000 ms; the 'taking too long' message after about two minutes; popup 640 × 640, closure polled every 100 ms. */
export const PAYMENT_POLL_MS = 1000;
export const PAYMENT_TOO_LONG_MS = 120_000;
export const PAYMENT_POPUP = { width: 640, height: 640, closurePollMs: 100 } as const;
