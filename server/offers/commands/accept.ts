/** Accepting one offer (account-flows.md §4 "Offer acceptance", §7 accept). */
import type { AcceptAnswer } from '../../../schemas/generated/offers';
import type { AcceptRecommendationQuery } from '../../../schemas/generated/accept-recommendation-query';
import { paysOnline, type UpgradeTime } from '../../../engine/domain/offers';
import { acceptOffer, isOfferTaken } from '../../../engine/domain/lifecycle';
import { badRequest, notFound } from '../../http/errors';
import { lockSubscription } from '../../store/subscriptionStore';
import { listCancellationReasons } from '../../store/offerStore';
import { refusedTransition } from '../../tenancy/refusals';
import { offerTexts } from '../recommendations';
import { categoryOf, requireOfferSource, requirePayer, type Caller, type OfferKit } from '../offerKit';
import { expireStalePayments } from './settlement';

/**
 * POST /subscriptions/{id}/recommendations/{recommendationId}/accept (§7): through the
 * lifecycle's acceptOffer, so an offer is accepted once (a second accept, even a double submit,
 * is 409 offer_already_accepted and changes nothing).
 */
export async function accept(
  kit: OfferKit,
  caller: Caller,
  subscriptionId: string,
  offerId: string,
  query: AcceptRecommendationQuery,
): Promise<AcceptAnswer> {
  const { tenant } = caller;
  const { db } = kit;
  await expireStalePayments(kit, tenant, [(await kit.subscriptionOf(db, caller, subscriptionId)).id]);
  return db.transaction(async (tx) => {
    await lockSubscription(tx, tenant.id, subscriptionId);
    const s = await kit.subscriptionOf(tx, caller, subscriptionId);
    const source = query.source;
    requireOfferSource(source, s, tenant);
    const category = categoryOf(source, tenant, query.category);
    if (source === 'cancellation') {
      if (!query.cancelReason)
        throw badRequest(
          'validation_failed',
          'A retention offer is accepted for a cancellation reason (cancelReason).',
        );
      const reasons = await listCancellationReasons(tx, tenant.id, s.publication);
      if (!reasons.some((r) => r.code === query.cancelReason))
        throw badRequest('validation_failed', 'Unknown cancellation reason.');
    }
    // Only an offer of the caller's experiment variant: the one the flow showed.
    const offers = await kit.offersFor(tx, tenant, s, source, category, query.cancelReason, caller.user.id);
    const offer = offers.find((o) => o.id === offerId);
    if (!offer) throw notFound('This offer is not available for this subscription.');
    const upgradeTime: UpgradeTime | null =
      offer.offer.kind === 'upgradeOption' ? (offer.offer.upgradeTime ?? 'NOW') : null;
    if (query.upgradeTime && upgradeTime && query.upgradeTime !== upgradeTime)
      throw badRequest('validation_failed', `This offer takes effect ${upgradeTime}.`);
    requirePayer(s, offer);

    const state = await kit.lifecycleOf(tx, tenant, s.id);
    if (isOfferTaken(state, offer.id, kit.today())) throw refusedTransition('offer_already_accepted');
    const request = kit.acceptRequest(s, offer, source, upgradeTime);
    // Whether it may apply is decided before anyone is sent to pay for it.
    const check = acceptOffer(state, { ...request, paymentId: null });
    if (!check.ok) throw refusedTransition(check.refusal);
    const context = {
      userId: caller.user.id,
      locale: tenant.defaultLocale,
      cancelReason: query.cancelReason ?? null,
    };
    const accepted = { s, offer, source, state };

    if (paysOnline(offer.paymentProvider)) {
      const payment = await kit.startPayment(
        tx,
        caller,
        [offer],
        `${s.displayName} (${s.orderNumber}): ${offerTexts(offer, caller.locale).title}`,
      );
      await kit.holdForPayment(tx, tenant, accepted, request, payment.id, context);
      return {
        url: payment.url,
        status: 'pending',
        pendingPayment: { id: payment.id, subscriptionId: s.id },
      };
    }
    await kit.applyNow(tx, caller, accepted, check, context);
    return { url: null, status: 'applied' };
  });
}
