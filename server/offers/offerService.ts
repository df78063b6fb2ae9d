/**
 * Offers of the cancellation, renewal, bulk renewal and upgrade flows (account-flows.md §3
 * Recommendation, §4 "Offer acceptance", "Bulk renewal", §7 recommendations / accept /
 * acceptAllRecommendations / pending-payments). Decides, in one transaction per change, with the
 * capability rules of engine/domain the screens use; the SQL is in server/store/offerStore.ts.
 *
 *  - An offer paid by invoice or direct debit applies at once (answer url null).
 *  - An offer paid by card or PayPal creates a pending payment and answers the provider's page; the
 *    payment's settlement applies every offer it pays for, or none (server/payments/).
 *  - A second accept of an offer by the same account while its payment is pending, or within
 *    minutes of its being applied, answers as the first did and changes nothing; changes to one
 *    subscription are serialized by its row lock (subscriptions first, then payments, everywhere).
 *  - Each source keeps to its own kind of offer, a retention offer is taken once a year, and offers
 *    billed by invoice or direct debit are for the ordering party (the security review's findings).
 *
 * One module per command family under ./commands (the offer lists, accepting one offer, accepting
 * a bulk renewal, settling a payment, a pending payment as its payer sees it), over the shared kit
 * of ./offerKit.ts; this module only binds them to one kit, so the routes and the cancellation and
 * bulk-renewal slices keep one `offers` object to call.
 */
import { createOfferKit, type OfferKit, type OfferServiceDeps } from './offerKit';
import { recommendations, retentionOffers } from './commands/offerLists';
import { accept } from './commands/accept';
import { acceptAll } from './commands/bulkAccept';
import { expireStalePayments, settle } from './commands/settlement';
import { abandon, openPayments, pendingPayment } from './commands/pendingPayments';

export { externallyManaged, requireOfferSource, type OfferServiceDeps } from './offerKit';
export { pendingPaymentView } from './commands/pendingPayments';

export function createOfferService(deps: OfferServiceDeps) {
  const kit = createOfferKit(deps);
  /** A command with this service's kit: the same parameters after the kit. */
  const bound =
    <A extends unknown[], R>(command: (kit: OfferKit, ...args: A) => R) =>
    (...args: A): R =>
      command(kit, ...args);
  return {
    expireStalePayments: bound(expireStalePayments),
    recommendations: bound(recommendations),
    retentionOffers: bound(retentionOffers),
    accept: bound(accept),
    acceptAll: bound(acceptAll),
    settle: bound(settle),
    pendingPayment: bound(pendingPayment),
    openPayments: bound(openPayments),
    abandon: bound(abandon),
  };
}

export type OfferService = ReturnType<typeof createOfferService>;
