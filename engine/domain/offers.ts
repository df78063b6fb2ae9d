/**
 * Offer rules shared by the renewal, bulk renewal, upgrade and cancellation screens and the server
 * (account-flows.md §3 Recommendation and bulk selection, §4 "Offer acceptance", §5, §9).
 */
import { isPlausibleEmail, textLength } from './fieldRules';
import { isActiveNotCancelled } from './orderStatus';
import type { Subscription } from '../../schemas/generated/subscription';
import { isBundleSlave, isExternallyManaged, isOrderingParty, type CapabilityTenant } from './capabilityRule';
import { isFeatureOn } from './tenantFeatures';

/** §3: how an offer is paid; CREDIT_CARD and PAYPAL go through the payment page (a popup). */
export type PaymentProvider = 'INVOICE' | 'DIRECT_DEBIT' | 'CREDIT_CARD' | 'PAYPAL';
export const PAYMENT_PROVIDERS: readonly PaymentProvider[] = [
  'INVOICE',
  'DIRECT_DEBIT',
  'CREDIT_CARD',
  'PAYPAL',
];
export const paysOnline = (provider: PaymentProvider) => provider === 'CREDIT_CARD' || provider === 'PAYPAL';

/**
 * §6 "AG (ordering party) is used as 'not a gift'": an offer paid by invoice or direct debit is
 * billed to the ordering party, so only the ordering party may take it; a recipient (a gift's) may
 * only pay online themselves. The offer lists show only what the subscriber may take, and the
 * accept refuses the rest (server/offers/offerKit.ts requirePayer).
 */
export const mayPayFor = (s: Pick<Subscription, 'roles'>, provider: PaymentProvider) =>
  paysOnline(provider) || isOrderingParty(s);

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
export function offerCategory(
  source: 'renewal' | 'upgrade' | 'cancellation',
  query: string | undefined,
  tenantCategory: string | undefined,
): string {
  if (source === 'cancellation') return 'CANCEL';
  return query || tenantCategory || (source === 'upgrade' ? UPGRADE_CATEGORY : DEFAULT_RENEWAL_CATEGORY);
}

/** §5 Bulk renewal: the conflict message's condition — a credit-card and a direct-debit choice together. */
export function hasPaymentConflict(providers: readonly PaymentProvider[]): boolean {
  return providers.includes('CREDIT_CARD') && providers.includes('DIRECT_DEBIT');
}
export const BULK_PAYMENT_CONFLICT_MESSAGE =
  "The payment methods 'Credit Card' and 'Direct Debit' cannot be used together.";

/** §3 bulk selection key: client id (the first 3 characters of the subscription id) plus order number. */
export const bulkSelectionKey = (s: { id: string; orderNumber: string }) =>
  `${s.id.slice(0, 3)}${s.orderNumber}`;

/** §5 Bulk renewal: e-mail max 35, last name max 35, zip code 4 to 10. */
export const BULK_LOGIN_LIMITS = { email: 35, lastName: 35, zipMin: 4, zipMax: 10 } as const;

/** §5 Renewal/upgrade: order number 10 digits starting with 4. */
export const isRenewalOrderNumber = (value: string) => /^4\d{9}$/.test(value);

/** §9: payment poll interval 1000 ms; the 'taking too long' message after about two minutes; popup 640 × 640, closure polled every 100 ms. */
export const PAYMENT_POLL_MS = 1000;
export const PAYMENT_TOO_LONG_MS = 120_000;
export const PAYMENT_POPUP = { width: 640, height: 640, closurePollMs: 100 } as const;

/** The renewal and upgrade login of §2 (POST /login/order-number). */
export interface OrderNumberLoginInput {
  orderNumber: string;
  lastName: string;
}
export type OrderNumberLoginError = { field: keyof OrderNumberLoginInput; code: 'required' | 'invalid' };

/** §5 Renewal/upgrade: "order number and last name required ... Order number 10 digits starting with 4". */
export function orderNumberLoginErrors(input: OrderNumberLoginInput): OrderNumberLoginError[] {
  const errors: OrderNumberLoginError[] = [];
  const orderNumber = input.orderNumber.trim();
  if (!orderNumber) errors.push({ field: 'orderNumber', code: 'required' });
  else if (!isRenewalOrderNumber(orderNumber)) errors.push({ field: 'orderNumber', code: 'invalid' });
  if (!input.lastName.trim()) errors.push({ field: 'lastName', code: 'required' });
  return errors;
}

/** The bulk renewal login of §2 (POST /login/bulk-renewal). */
export interface BulkLoginInput {
  email: string;
  lastName: string;
  zipcode: string;
}
export type BulkLoginError = {
  field: keyof BulkLoginInput;
  code: 'required' | 'invalid' | 'too_long' | 'too_short';
};

/** §5 Bulk renewal: "email max 35, last name max 35, zip min 4 max 10, all required". */
export function bulkLoginErrors(input: BulkLoginInput): BulkLoginError[] {
  const errors: BulkLoginError[] = [];
  const email = input.email.trim();
  const lastName = input.lastName.trim();
  const zipcode = input.zipcode.trim();
  if (!email) errors.push({ field: 'email', code: 'required' });
  else if (email.length > BULK_LOGIN_LIMITS.email) errors.push({ field: 'email', code: 'too_long' });
  else if (!isPlausibleEmail(email)) errors.push({ field: 'email', code: 'invalid' });
  if (!lastName) errors.push({ field: 'lastName', code: 'required' });
  else if (textLength(lastName) > BULK_LOGIN_LIMITS.lastName)
    errors.push({ field: 'lastName', code: 'too_long' });
  if (!zipcode) errors.push({ field: 'zipcode', code: 'required' });
  else if (zipcode.length < BULK_LOGIN_LIMITS.zipMin) errors.push({ field: 'zipcode', code: 'too_short' });
  else if (zipcode.length > BULK_LOGIN_LIMITS.zipMax) errors.push({ field: 'zipcode', code: 'too_long' });
  return errors;
}

/**
 * The upgrade offers the screen lists (§2 "the upgrade screen is the same without an empty
 * option"): those whose upgrade time the tenant offers (upgrade.upgradeTimes); an offer without an
 * upgrade option takes effect as the order system decides and stays.
 */
export function upgradeOffers<R extends { upgradeOption?: { upgradeTime: UpgradeTime } }>(
  offers: readonly R[],
  upgradeTimes: readonly UpgradeTime[],
): R[] {
  return offers.filter(
    (offer) => !offer.upgradeOption || upgradeTimes.includes(offer.upgradeOption.upgradeTime),
  );
}

/**
 * §2 Bulk renewal, §6 "Bulk renewal recommendations concern only business partners with role WE":
 * the user's active renewable subscriptions they receive, not cancelled ones (AK): a recipient's
 * renewal must not revoke the ordering party's cancellation (engine/domain/lifecycle.ts). And only
 * those a renewal can take, as the renewal button's rule has it (cardCapabilities.ts): not
 * renewing by itself (unless the tenant renews those too, `renewal.forceWithAutoRenewal`), not a
 * bundle's component (its master is renewed), not managed outside the portal's order system
 * (WBZA), and not of a publication the renewal is switched off for. The screen lists these and the
 * server refuses every other, so one subscription the server would refuse never fails the list.
 */
export function isBulkRenewalSubscription(
  s: Pick<
    Subscription,
    'orderStatus' | 'roles' | 'isRenewal' | 'renewal' | 'salesDocumentType' | 'publication'
  >,
  tenant: CapabilityTenant,
): boolean {
  const renewsByItself = (s.renewal?.autoRenewal ?? false) && !tenant.renewal?.forceWithAutoRenewal;
  return (
    isActiveNotCancelled(s.orderStatus) &&
    s.roles.includes('WE') &&
    s.isRenewal &&
    !renewsByItself &&
    !isBundleSlave(s) &&
    !isExternallyManaged(s) &&
    isFeatureOn(tenant, 'renewal', s.publication)
  );
}

/** One chosen offer of the bulk renewal: the recommendation with its payment providers. */
export interface BulkChoice {
  recommendationId: string;
  paymentProviders: ReadonlyArray<{ PAYMENT_PROVIDER: PaymentProvider }>;
}

/**
 * §3 "Bulk selection: map keyed by client id plus order number, each with the chosen
 * recommendation and paymentProviders[0].PAYMENT_PROVIDER" — entries without a choice left out.
 */
export function bulkSelection(choices: Readonly<Record<string, BulkChoice | null | undefined>>): {
  selectedRecommendations: Record<
    string,
    { recommendationId: string; paymentProviders: Array<{ PAYMENT_PROVIDER: PaymentProvider }> }
  >;
  providers: PaymentProvider[];
} {
  const selectedRecommendations: Record<
    string,
    { recommendationId: string; paymentProviders: Array<{ PAYMENT_PROVIDER: PaymentProvider }> }
  > = {};
  const providers: PaymentProvider[] = [];
  for (const [key, choice] of Object.entries(choices)) {
    const provider = choice?.paymentProviders[0]?.PAYMENT_PROVIDER;
    if (!choice || !provider) continue;
    selectedRecommendations[key] = {
      recommendationId: choice.recommendationId,
      paymentProviders: [{ PAYMENT_PROVIDER: provider }],
    };
    providers.push(provider);
  }
  return { selectedRecommendations, providers };
}

/** What the payment page posts to its opener when the payment ends (§4 "On its message"). */
export interface PaymentMessage {
  type: 'portal-payment';
  paymentId?: string;
  status?: string;
}
export const PAYMENT_MESSAGE_TYPE = 'portal-payment';
export const PAYMENT_WINDOW_NAME = 'portal-payment';

/**
 * §4 "Payment method change ... messages count only from the same origin as the popup URL", used
 * for every payment popup: the message must come from the popup itself, from the origin of its URL
 * (resolved against the portal's address), and carry the payment page's type.
 */
export function isPaymentMessage(
  event: { origin: string; source: unknown; data: unknown },
  popup: unknown,
  popupUrl: string,
  base: string,
): event is { origin: string; source: unknown; data: PaymentMessage } {
  let origin: string;
  try {
    origin = new URL(popupUrl, base).origin;
  } catch {
    return false;
  }
  const data = event.data as Partial<PaymentMessage> | null;
  return (
    event.origin === origin &&
    event.source === popup &&
    typeof data === 'object' &&
    data !== null &&
    data.type === PAYMENT_MESSAGE_TYPE
  );
}
