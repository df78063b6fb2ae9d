/** The offers open to a subscription (account-flows.md §3 Recommendation, §7 recommendations). */
import type { Queryable } from '../../db/database';
import type { Locale } from '../../../engine/domain/locales';
import type { Recommendation } from '../../../schemas/generated/offers';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { RecommendationsQuery } from '../../../schemas/generated/recommendations-query';
import { CANCEL_CATEGORY } from '../../../engine/domain/cancellation';
import { openOffers, upgradeFitsTerm } from '../../../engine/domain/lifecycle';
import type { ServerTenant } from '../../tenancy/tenantContext';
import { toRecommendation } from '../recommendations';
import { categoryOf, nextCycleOf, requireOfferSource, type Caller, type OfferKit } from '../offerKit';
import { expireStalePayments } from './settlement';
import { recordFlowStartQuietly } from '../../insights/flowStarts';
import { experimentAssignment } from '../../../engine/domain/offerExperiments';
import { mayPayFor } from '../../../engine/domain/offers';

/**
 * GET /subscriptions/{id}/recommendations (§7): the offers of the source's category that are
 * still open to the subscription (engine/domain/lifecycle.ts openOffers: one accepted or waiting
 * for its payment is not offered again, nor an upgrade to a format it has or will have — the rule
 * the accept refuses by, so the list shows only what may be accepted), and of those only what the
 * subscriber may pay for: a gift's recipient renewing in the bulk renewal pays online (mayPayFor).
 */
export async function recommendations(
  kit: OfferKit,
  caller: Caller,
  subscriptionId: string,
  query: RecommendationsQuery,
): Promise<Recommendation[]> {
  const { db } = kit;
  const s = await kit.subscriptionOf(db, caller, subscriptionId);
  await expireStalePayments(kit, caller.tenant, [s.id]);
  requireOfferSource(query.source, s, caller.tenant);
  const offers = await kit.offersFor(
    db,
    caller.tenant,
    s,
    query.source,
    categoryOf(query.source, caller.tenant, query.category),
    undefined,
    caller.user.id,
  );
  const state = await kit.lifecycleOf(db, caller.tenant, s.id);
  const nextCycle = nextCycleOf(s, kit.today());
  const shown = openOffers(state, offers, kit.today(), query.source).filter(
    (offer) =>
      mayPayFor(s, offer.paymentProvider) &&
      upgradeFitsTerm(
        state,
        offer.offer.kind === 'upgradeOption' ? (offer.offer.upgradeTime ?? 'NOW') : null,
        nextCycle,
      ),
  );
  // The retention insights count renewals and upgrades offered in the portal; a bulk
  // renewal lists many subscriptions at once and is not a flow of one.
  if (query.source === 'renewal' || query.source === 'upgrade') {
    await recordFlowStartQuietly(
      db,
      {
        tenantId: caller.tenant.id,
        userId: caller.user.id,
        subscription: s,
        flow: query.source,
        reason: null,
        offerIds: shown.map((offer) => offer.id),
        experiment:
          experimentAssignment(caller.tenant, query.source, null, caller.user.id)?.assignment ?? null,
      },
      kit.now(),
    );
  }
  return shown.map((offer) => toRecommendation(offer, caller.locale, s));
}

/**
 * The retention offers shown for a reason (cancellation infos), unless the tenant overrides them;
 * open ones only, and of the subscriber's (account id) variant where an offer experiment runs.
 */
export async function retentionOffers(
  kit: OfferKit,
  tx: Queryable,
  tenant: ServerTenant,
  s: Subscription,
  reason: string,
  locale: Locale,
  subscriberId: string,
): Promise<Recommendation[]> {
  if (!tenant.cancellation.showRetentionOffers) return [];
  const offers = await kit.offersFor(tx, tenant, s, 'cancellation', CANCEL_CATEGORY, reason, subscriberId);
  return openOffers(await kit.lifecycleOf(tx, tenant, s.id), offers, kit.today(), 'cancellation')
    .filter((offer) => mayPayFor(s, offer.paymentProvider))
    .map((offer) => toRecommendation(offer, locale, s));
}
