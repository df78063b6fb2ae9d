import type { Queryable } from '../db/database';
import type { Subscription } from '../../schemas/generated/subscription';
import { loadLifecycle } from '../store/subscriptionStore';
import { renewedUntil } from '../../engine/domain/lifecycle';
import { utcDay } from '../../engine/domain/dates';

/**
 * One subscription as its page and flows read it (GET /subscriptions/{id}, and the answers that
 * give it back): the list's fields, and whether a renewal runs and until when, from the model the
 * renewal flow decides with (engine/domain/lifecycle.ts renewedUntil).
 */
export async function subscriptionPage(
  db: Queryable,
  tenantId: string,
  subscription: Subscription,
  now: Date,
): Promise<Subscription> {
  const lifecycle = await loadLifecycle(db, tenantId, subscription.id);
  return { ...subscription, renewedUntil: lifecycle ? renewedUntil(lifecycle, utcDay(now)) : null };
}

/**
 * The list's subscriptions with `renewedUntil` too, so that a card offers no renewal while one
 * runs (engine/domain/cardCapabilities.ts offersRenewal), as the subscription page does. Only a
 * subscription with an applied extension (a renewal, a retention offer that extends the term) can
 * have one: the rest are not read twice.
 */
export async function subscriptionList(
  db: Queryable,
  tenantId: string,
  subscriptions: readonly Subscription[],
  now: Date,
): Promise<Subscription[]> {
  if (subscriptions.length === 0) return [];
  const renewed = await db.query<{ subscription_id: string }>(
    `select distinct a.subscription_id from offer_acceptances a
       join offers o on o.tenant_id = a.tenant_id and o.id = a.offer_id
      where a.tenant_id = $1 and a.subscription_id = any($2::text[])
        and a.status = 'applied' and o.effect->>'kind' = 'extend'`,
    [tenantId, subscriptions.map((s) => s.id)],
  );
  const ids = new Set(renewed.map((r) => r.subscription_id));
  return Promise.all(
    subscriptions.map((s) =>
      ids.has(s.id) ? subscriptionPage(db, tenantId, s, now) : { ...s, renewedUntil: null },
    ),
  );
}
