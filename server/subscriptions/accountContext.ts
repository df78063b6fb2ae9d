/**
 * What the account routes share: the tenant's settings as the domain rules read them, the signed-in
 * user's subscription or a 404 (§6: a subscription not linked to the user is not found), and the
 * capability gate that refuses what the UI hides (CONVENTIONS.md rule 3).
 */
import type { Response } from 'express';
import type { Queryable } from '../db/database';
import type { Subscription } from '../../schemas/generated/subscription';
import type { TenantWithDefaults } from '../../schemas/generated/tenant';
import { checkCapability, type Capability, type CapabilityContext } from '../../engine/domain/capabilities';
import { currentUser } from '../auth/authMiddleware';
import { HttpError, notFound } from '../http/errors';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { tenantContext, type ServerTenant } from '../tenancy/tenantContext';

/**
 * The request's tenant with its settings. The server is handed validated tenants (defaults applied,
 * theme resolved); tests may hand a bare ServerTenant, so every setting is read as optional.
 */
export type AccountTenant = ServerTenant &
  Partial<Omit<TenantWithDefaults, keyof ServerTenant>> & { themeTokens?: { colors?: { primary?: string; onPrimary?: string } } };

export function accountTenant(res: Response): AccountTenant {
  return tenantContext(res).tenant as AccountTenant;
}

export function capabilityContext(tenant: AccountTenant): CapabilityContext {
  return { tenant: { ...tenant, publicationBlacklists: tenant.publicationBlacklists as Record<string, string[]> | undefined } };
}

/** The user's subscription or 404 `not_found`. */
export async function subscriptionOr404(db: Queryable, res: Response, id: string): Promise<Subscription> {
  const subscription = await getSubscriptionForUser(db, accountTenant(res).id, currentUser(res).id, id);
  if (!subscription) throw notFound('There is no such subscription on your account.');
  return subscription;
}

/** 403 `feature_disabled` when the tenant has the feature off for the publication, 403 `not_allowed` when the rule of §6 refuses. */
export function requireCapability(capability: Capability, subscription: Subscription, tenant: AccountTenant): void {
  const check = checkCapability(capability, subscription, capabilityContext(tenant));
  if (check === 'feature_disabled') {
    throw new HttpError(403, 'feature_disabled', `This portal does not offer ${capability} for ${subscription.publication}.`);
  }
  if (check === 'not_allowed') {
    throw new HttpError(403, 'not_allowed', `${capability} is not possible for this subscription with your role (portal-core.md §6).`);
  }
}

/** The UTC day of a moment, 'YYYY-MM-DD'. */
export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** The public URL of a file under this tenant's API base. */
export function fileUrl(res: Response, key: string): string {
  return `${tenantContext(res).basePath}api/files/${encodeURIComponent(key)}`;
}
