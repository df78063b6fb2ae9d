/** Accepting a renewal offer for several subscriptions at once (account-flows.md §4 "Bulk renewal", §5, §7). */
import type { AcceptAnswer } from '../../../schemas/generated/offers';
import type { BulkRenewalRequest } from '../../../schemas/generated/bulk-renewal-request';
import {
  BULK_PAYMENT_CONFLICT_MESSAGE,
  bulkSelectionKey,
  hasPaymentConflict,
  paysOnline,
  type PaymentProvider as OfferPaymentProvider,
} from '../../../engine/domain/offers';
import { acceptOffer } from '../../../engine/domain/lifecycle';
import { HttpError, badRequest } from '../../http/errors';
import { listSubscriptionsForUser, lockSubscription } from '../../store/subscriptionStore';
import { refuse, refusedTransition } from '../../tenancy/refusals';
import { offerTexts } from '../recommendations';
import {
  categoryOf,
  requireOfferSource,
  requirePayer,
  type Accepted,
  type Caller,
  type OfferKit,
} from '../offerKit';
import { expireStalePayments } from './settlement';

/** POST /subscriptions/acceptAllRecommendations (§4 "Bulk renewal", §5 payment conflict): one payment for all. */
export async function acceptAll(
  kit: OfferKit,
  caller: Caller,
  request: BulkRenewalRequest,
): Promise<AcceptAnswer> {
  const { tenant } = caller;
  const { db } = kit;
  const entries = Object.entries(request.selectedRecommendations);
  const chosen = entries.map(
    ([, value]) => value!.paymentProviders[0].PAYMENT_PROVIDER as OfferPaymentProvider,
  );
  if (hasPaymentConflict(chosen)) throw badRequest('payment_conflict', BULK_PAYMENT_CONFLICT_MESSAGE);
  const keys = new Set(entries.map(([key]) => key));
  await expireStalePayments(
    kit,
    tenant,
    (await listSubscriptionsForUser(db, tenant.id, caller.user.id))
      .filter((x) => keys.has(bulkSelectionKey(x)))
      .map((x) => x.id),
  );
  return db.transaction(async (tx) => {
    // Lock first, in one order (as every flow does), then read what the locks protect.
    const listed = await listSubscriptionsForUser(tx, tenant.id, caller.user.id);
    for (const id of listed
      .filter((x) => keys.has(bulkSelectionKey(x)))
      .map((x) => x.id)
      .sort())
      await lockSubscription(tx, tenant.id, id);
    const mine = await listSubscriptionsForUser(tx, tenant.id, caller.user.id, { locale: caller.locale });
    const picked: Accepted[] = [];
    for (const [key, selection] of entries) {
      const value = selection!;
      const s = mine.find((candidate) => bulkSelectionKey(candidate) === key);
      if (!s) throw refuse.notYours(`There is no subscription ${key} on your account.`);
      requireOfferSource('bulk-renewal', s, tenant);
      const offers = await kit.offersFor(
        tx,
        tenant,
        s,
        'bulk-renewal',
        categoryOf('bulk-renewal', tenant, undefined),
      );
      const offer = offers.find((o) => o.id === value.recommendationId);
      if (!offer)
        throw new HttpError(
          404,
          'not_found',
          `The offer ${value.recommendationId} is not available for ${s.orderNumber}.`,
          { orderNumber: s.orderNumber },
        );
      if (offer.paymentProvider !== value.paymentProviders[0].PAYMENT_PROVIDER)
        throw badRequest('validation_failed', `The offer ${offer.id} is paid by ${offer.paymentProvider}.`);
      requirePayer(s, offer);
      const state = await kit.lifecycleOf(tx, tenant, s.id);
      // Each one through the lifecycle: an offer already taken for one of them refuses the whole order.
      const check = acceptOffer(state, {
        ...kit.acceptRequest(s, offer, 'bulk-renewal', null),
        paymentId: null,
      });
      if (!check.ok) {
        const refused = refusedTransition(check.refusal);
        throw new HttpError(refused.status, refused.code, `${s.orderNumber}: ${refused.message}`, {
          orderNumber: s.orderNumber,
        });
      }
      picked.push({ s, offer, source: 'bulk-renewal', state });
    }
    const context = { userId: caller.user.id, locale: tenant.defaultLocale };
    const online = picked.filter(({ offer }) => paysOnline(offer.paymentProvider));
    if (online.length > 0) {
      // What the payment pays: the items paid online (an invoice item waits for it, and is invoiced).
      const description = online
        .map(({ s, offer }) => `${s.orderNumber}: ${offerTexts(offer, caller.locale).title}`)
        .join('; ');
      const payment = await kit.startPayment(
        tx,
        caller,
        online.map(({ offer }) => offer),
        description,
      );
      // Everything chosen waits for the one payment, so a failed payment renews nothing.
      for (const accepted of picked) {
        const { s, offer } = accepted;
        await kit.holdForPayment(
          tx,
          tenant,
          accepted,
          kit.acceptRequest(s, offer, 'bulk-renewal', null),
          payment.id,
          context,
        );
      }
      return {
        url: payment.url,
        status: 'pending',
        pendingPayment: { id: payment.id, subscriptionId: picked[0].s.id },
      };
    }
    for (const accepted of picked) {
      const { s, offer, state } = accepted;
      const result = acceptOffer(state, {
        ...kit.acceptRequest(s, offer, 'bulk-renewal', null),
        paymentId: null,
      });
      if (!result.ok) throw refusedTransition(result.refusal);
      await kit.applyNow(tx, caller, accepted, result, context);
    }
    return { url: null, status: 'applied' };
  });
}
