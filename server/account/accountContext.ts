/**
 * What the account routes share: the signed-in user's subscription or a 404 (§6: a subscription not
 * linked to the user is not found), the day of a moment, and file URLs. Refusals by feature flag
 * and capability rule are in server/tenancy/refusals.ts.
 */
import type { Request, Response } from 'express';
import type { Queryable } from '../db/database';
import type { Subscription } from '../../schemas/generated/subscription';
import { currentUser } from '../auth/authMiddleware';
import { refuse } from '../tenancy/refusals';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { requestTenant, tenantContext, type ServerTenant } from '../tenancy/tenantContext';
import { requestLocale } from '../tenancy/requestLocale';
import type { Locale } from '../../engine/domain/locales';

/** The user's subscription or 404 `not_found`; in the screen's language when the request is given. */
export async function subscriptionOr404(
  db: Queryable,
  res: Response,
  id: string,
  req?: Request,
  /** A document's language where it is not the screen's (an invoice's `?lang=`). */
  locale?: Locale,
): Promise<Subscription> {
  const tenant = requestTenant(res);
  const subscription = await getSubscriptionForUser(db, tenant.id, currentUser(res).id, id, {
    locale: locale ?? (req ? requestLocale(req, tenant) : undefined),
  });
  if (!subscription) throw refuse.notYours('There is no such subscription on your account.');
  return subscription;
}

/** The public URL of a file under this tenant's API base. */
export function fileUrl(res: Response, key: string): string {
  return `${tenantContext(res).basePath}api/files/${encodeURIComponent(key)}`;
}

/**
 * Who asks or changes something, in which language, on which portal: the tenant, the signed-in user,
 * the screen's locale and the base path the portal is served under (for links back into it). Every
 * signed-in slice builds its caller here.
 */
export function accountCaller(req: Request, res: Response) {
  const tenant = requestTenant(res);
  return {
    tenant,
    user: currentUser(res),
    locale: requestLocale(req, tenant),
    basePath: tenantContext(res).basePath,
  };
}
export type AccountCaller = ReturnType<typeof accountCaller>;

/** Salutation codes that are companies (account-flows.md §5: company required). */
export const companySalutations = (tenant: ServerTenant) =>
  (tenant.salutations?.options ?? []).filter((s) => s.isCompany).map((s) => s.code);

/**
 * Who hears of a change to a partner's data: the account that made it and the partner's own address
 * on record when it differs (an account may speak for a partner by
 * knowledge of order number and zip code alone).
 */
export function recipients(accountEmail: string, partnerEmail: string | null | undefined): string[] {
  const account = accountEmail.trim().toLowerCase();
  const partner = partnerEmail?.trim().toLowerCase();
  return partner && partner !== account ? [account, partner] : [account];
}

/**
 * The same, each with the language of its mail: the account's is the one it uses the portal in;
 * the partner's, someone else (a gift's recipient) who never chose one here, the publisher's.
 */
export function recipientsInLanguages<L extends string>(
  account: { email: string; locale: L },
  partner: { email: string | null | undefined; locale: L },
): Array<{ to: string; locale: L }> {
  const [own, other] = recipients(account.email, partner.email);
  return other
    ? [
        { to: own, locale: account.locale },
        { to: other, locale: partner.locale },
      ]
    : [{ to: own, locale: account.locale }];
}
