/**
 * What the account routes share: the signed-in user's subscription or a 404 (§6: a subscription not
 * linked to the user is not found), the day of a moment, and file URLs. Refusals by feature flag
 * and capability rule are in server/tenancy/refusals.ts.
 */
import type { Response } from 'express';
import type { Queryable } from '../db/database';
import type { Subscription } from '../../schemas/generated/subscription';
import { currentUser } from '../auth/authMiddleware';
import { refuse } from '../tenancy/refusals';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { requestTenant, tenantContext } from '../tenancy/tenantContext';

/** The user's subscription or 404 `not_found`. */
export async function subscriptionOr404(db: Queryable, res: Response, id: string): Promise<Subscription> {
  const subscription = await getSubscriptionForUser(db, requestTenant(res).id, currentUser(res).id, id);
  if (!subscription) throw refuse.notYours('There is no such subscription on your account.');
  return subscription;
}

/** The UTC day of a moment, 'YYYY-MM-DD'. */
export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** The public URL of a file under this tenant's API base. */
export function fileUrl(res: Response, key: string): string {
  return `${tenantContext(res).basePath}api/files/${encodeURIComponent(key)}`;
}
