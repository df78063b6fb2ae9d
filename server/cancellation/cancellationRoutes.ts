/**
 * The cancellation calls (account-flows.md §7: cancellation-reasons, cancellation-infos, cancel) and
 * the anonymous cancellation form's check (§2, §4: e-mail, order number and zip code).
 */
import { accountCaller } from '../account/accountContext';
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { requestOrigin } from '../http/requestOrigin';
import { trimEmail } from '../http/trimEmail';
import {
  DEFAULT_SIGN_IN_LIMITS,
  guessingOrderNumber,
  isWrongOrderNumberGuess,
  type SignInLimits,
} from '../auth/rateLimit';
import type { Database } from '../db/database';
import { HttpError } from '../http/errors';
import { validateBody, validateQuery, validQuery } from '../http/validateBody';
import type { CancellationInfosQuery } from '../../schemas/generated/cancellation-infos-query';
import type { CancelRequest } from '../../schemas/generated/cancel-request';
import { cancellationStart } from '../../engine/domain/cancellation';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import { maskEmail, normalizeEmail } from '../../engine/domain/fieldRules';
import { partnersOfOrderNumber } from '../store/partialLoginStore';
import { listCancellationReasons } from '../store/offerStore';
import { subscriptionFacts } from '../store/subscriptionStore';
import { requestLocale } from '../tenancy/requestLocale';
import { requestTenant } from '../tenancy/tenantContext';
import { refuse } from '../tenancy/refusals';
import type { ApiSlice } from '../tenancy/apiSlice';
import { externallyManaged } from '../offers/offerService';
import type { CancellationService } from './cancellationService';

/** A refused check: a 400 link result whose details carry the status (as the other partial logins answer). */
const linkResult = (status: string, message: string, extra: Record<string, string> = {}) =>
  new HttpError(400, status, message, { status, ...extra });
const zip = (value: string | null) => (value ?? '').replace(/\s+/g, '').toLowerCase();

/**
 * The cancellation calls (account-flows.md §2 "Cancellation", §4), only while the tenant has the
 * cancellation feature: the slice is gated where it is mounted; the calls on a subscription also
 * ask its capability rule, which adds the publication blacklist (portal-core.md §6).
 */
export function cancellationSlice(deps: {
  db: Database;
  auth: AuthService;
  cancellations: CancellationService;
  now: () => Date;
  signInLimits?: SignInLimits;
}): ApiSlice {
  const router = Router();
  router.use('/subscriptions/:id', requireUser(deps.auth));

  router.get('/subscriptions/:id/cancellation-reasons', async (req, res) => {
    res.json(await deps.cancellations.reasons(accountCaller(req, res), String(req.params.id)));
  });

  router.get(
    '/subscriptions/:id/cancellation-infos',
    validateQuery('cancellation-infos-query'),
    async (req, res) => {
      res.json(
        await deps.cancellations.infos(
          accountCaller(req, res),
          String(req.params.id),
          validQuery<CancellationInfosQuery>(res).cancellationReason,
        ),
      );
    },
  );

  router.post('/subscriptions/:id/cancel', validateBody('cancel-request'), async (req, res) => {
    res.json(
      await deps.cancellations.cancel(
        accountCaller(req, res),
        String(req.params.id),
        req.body as CancelRequest,
      ),
    );
  });

  /**
   * The anonymous form's check (§4: "logs in by email, order number and zip; blocks if externally
   * managed or no reasons"). Order number and zip code are no proof of identity (docs/architecture.md
   * "Sign-in safety"): when they match and the subscription can be cancelled, a sign-in link goes to the
   * address on record — the partner's own, else its account's — and opens the cancellation page of
   * that one subscription; the answer is 400 confirm_email with that address masked. The typed
   * e-mail address decides nothing.
   */
  router.post(
    '/login/cancellation',
    trimEmail,
    validateBody('cancellation-login-request'),
    async (req, res) => {
      const tenant = requestTenant(res);
      const origin = { ...requestOrigin(req, res), locale: requestLocale(req, tenant, req.body.locale) };
      const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
      await guessingOrderNumber(
        deps.db,
        tenant.id,
        limits,
        { orderNumber: String(req.body.orderNumber), client: origin.client },
        deps.now(),
        async () => {
          const partners = await partnersOfOrderNumber(deps.db, tenant.id, String(req.body.orderNumber));
          if (partners.length === 0)
            throw linkResult('not_found', 'There is no subscription with this order number.');
          // The ordering party's zip code: ending the contract is theirs (engine/domain/capabilities.ts
          // cancellationRule), and the link goes to their address.
          const matching = partners.filter(
            (p) => p.role === 'AG' && zip(p.zipcode) === zip(String(req.body.zipcode)),
          );
          if (matching.length === 0)
            throw linkResult('verification_failed', 'The zip code does not match the order number.', {
              method: 'zip',
            });
          const subscriptionId = matching[0].subscriptionId;
          const facts = await subscriptionFacts(deps.db, tenant.id, subscriptionId);
          if (!facts) throw linkResult('not_found', 'There is no subscription with this order number.');
          // The tenant's switch and blacklist first: where the portal offers no cancellation, the answer
          // says nothing of the subscription's state, nor names its publication (the caller proved only
          // an order number and a zip code).
          if (!isFeatureOn(tenant, 'cancellation', facts.publication))
            throw refuse.featureDisabled('cancellation for this subscription');
          const start = cancellationStart(facts);
          if (start === 'already_cancelled')
            throw new HttpError(409, 'already_cancelled', 'This subscription is already cancelled.');
          if (start === 'externally_managed') throw externallyManaged(facts);
          // A bundle's component is cancelled with its bundle (the capability rule's `bundleComponent`):
          // no link to a page that would refuse it.
          if (facts.bundleComponent)
            throw new HttpError(
              409,
              'bundle_component',
              'This subscription is part of a bundle: cancel the bundle instead.',
            );
          if (!facts.isCancelable) throw refuse.notAllowed('This subscription cannot be cancelled online.');
          if ((await listCancellationReasons(deps.db, tenant.id, facts.publication)).length === 0) {
            throw new HttpError(
              409,
              'cancellation_not_possible',
              'This subscription cannot be cancelled online.',
            );
          }
          const proved = matching.filter((p) => p.subscriptionId === subscriptionId);
          const recipient =
            proved.find((p) => p.email?.trim())?.email ?? proved.find((p) => p.accountEmail)?.accountEmail;
          if (!recipient)
            throw linkResult(
              'no_email_on_record',
              'No e-mail address is on record for this subscription. Please contact customer service.',
            );
          const email = normalizeEmail(recipient);
          await deps.auth.sendPartnerSignInLink(
            tenant,
            {
              email,
              bpNumbers: [...new Set(proved.map((p) => p.bpNumber))],
              subscriptionId,
              loginSource: 'order-number',
              returnTo: `/subscriptions/${encodeURIComponent(subscriptionId)}/cancellation?returnTo=cancellation`,
            },
            origin,
          );
          throw linkResult(
            'confirm_email',
            'A sign-in link has been sent to the e-mail address on record for this subscription.',
            { maskedEmail: maskEmail(email) },
          );
        },
        isWrongOrderNumberGuess,
      );
    },
  );

  return { feature: 'cancellation', router };
}
