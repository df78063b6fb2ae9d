/**
 * Bulk renewal (account-flows.md §2 "Bulk renewal", §4, §5, §7 POST acceptAllRecommendations) and its
 * anonymous login. The subscriptions and their offers come from GET /subscriptions and GET
 * recommendations with source bulk-renewal (server/offers/).
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { requestOrigin } from '../http/requestOrigin';
import { trimEmail } from '../http/trimEmail';
import { validateBody } from '../http/validateBody';
import type { BulkRenewalRequest } from '../../schemas/generated/bulk-renewal-request';
import { requestLocale } from '../tenancy/requestLocale';
import { requestTenant } from '../tenancy/tenantContext';
import { refuse } from '../tenancy/refusals';
import type { ApiSlice } from '../tenancy/apiSlice';
import { accountCaller } from '../account/accountContext';
import type { OfferService } from '../offers/offerService';

/**
 * Bulk renewal (account-flows.md §2 "Bulk renewal"), part of the renewal feature: gated by its flag
 * where the slice is mounted; the login also needs the tenant's `renewal.bulkRenewal`, and each
 * subscription renewed the flag for its publication (server/offers/offerService.ts).
 */
export function bulkRenewalSlice(deps: { auth: AuthService; offers: OfferService }): ApiSlice {
  const router = Router();

  router.post(
    '/subscriptions/acceptAllRecommendations',
    requireUser(deps.auth),
    validateBody('bulk-renewal-request'),
    async (req, res) => {
      res.json(await deps.offers.acceptAll(accountCaller(req, res), req.body as BulkRenewalRequest));
    },
  );

  /**
   * The anonymous bulk-renewal login (e-mail, last name, zip code). The same 202 whatever matched:
   * the mail sender sends a sign-in link only when the address is on record for a business partner
   * with that name and zip code (server/auth/signInMailJobs.ts), so the answer tells nobody whether
   * the three belong together, and only the mailbox opens the session
   * (docs/architecture.md "Sign-in safety").
   */
  router.post(
    '/login/bulk-renewal',
    trimEmail,
    validateBody('bulk-renewal-login-request'),
    async (req, res) => {
      const tenant = requestTenant(res);
      if (!tenant.renewal.bulkRenewal) throw refuse.featureDisabled('bulk renewal');
      const origin = { ...requestOrigin(req, res), locale: requestLocale(req, tenant, req.body.locale) };
      await deps.auth.requestBulkRenewalLink(
        tenant,
        { email: req.body.email, lastName: req.body.lastName, zipcode: req.body.zipcode },
        origin,
      );
      res.status(202).json({ status: 'sent' });
    },
  );

  return { feature: 'renewal', router };
}
