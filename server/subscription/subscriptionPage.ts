import type { Queryable } from '../db/database';
import type { Subscription } from '../../schemas/generated/subscription';
import { loadLifecycle } from '../store/subscriptionStore';
import { renewedUntil } from '../../engine/domain/lifecycle';
import { utcDay } from '../../engine/domain/dates';

/**
 * One subscription as its page and flows read it (GET /subscriptions/{id}, and the answers that
 * give it back): the list's fields, and whether a renewal runs and until when, from the model the
 * renewal flow decides with (engine/domain/lifecycle.ts renewedUntil). The list leaves that out.
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
