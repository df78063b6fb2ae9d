import { Router } from 'express';
import type { Database } from '../db/database';
import { badRequest, HttpError } from '../http/errors';
import { validateBody } from '../http/validateBody';
import { tenantContext } from '../tenancy/tenantContext';
import { maskEmail, normalizeEmail } from '../../engine/domain/fieldRules';
import type { AuthService } from './authService';
import { requestOrigin } from '../http/requestOrigin';
import { trimEmail } from '../http/trimEmail';
import {
  DEFAULT_SIGN_IN_LIMITS,
  guessingOrderNumber,
  isWrongOrderNumberGuess,
  type SignInLimits,
} from './rateLimit';
import { partnersOfOrderNumber } from '../store/partialLoginStore';
import { refuse, requireFeature } from '../tenancy/refusals';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import { isRenewalOrderNumber } from '../../engine/domain/offers';

/** A refused order-number login: 400 whose details carry the §4 result (status, maskedEmail). */
function result(status: string, message: string, extra: Record<string, string> = {}): HttpError {
  return new HttpError(400, status, message, { status, ...extra });
}

const sameName = (a: string | null, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The partial logins of portal-core.md §4 and §7, made safe (docs/architecture.md "Sign-in
 * safety"): an order number, a name or a zip code is something others can know, so none of them
 * opens a session, creates an account or links a business partner to an address. They earn a
 * sign-in link mailed to an address on record for that partner; opening it is the proof (POST
 * /login/token).
 *
 *  - POST /login/order-number {orderNumber, lastName}:
 *      not_found — no subscription with that order number;
 *      verification_failed (method name) — the last name matches neither ordering party nor goods
 *        recipient (with a flow, renewal or upgrade: not the ordering party's, whose the flow is);
 *      confirm_email (maskedEmail) — a sign-in link went to the address on record: the partner's own
 *        e-mail address, else the account that speaks for the partner. Opening it (POST /login/token)
 *        creates the account for that address if needed, lets it speak for the partner and opens
 *        the §4 "logged in only" session (login source order-number) on the subscription.
 *        portal-core.md §4 / account-flows.md §4 "Link-style results" say the dialog confirms by
 *        resubmitting "with the e-mail returned by the server"; a resubmission proves nothing (the
 *        former confirmToken opened someone else's account with it), so the answer names
 *        where the link went, masked, and returns nothing that could stand in for opening it;
 *      no_email_on_record — the partner has neither an account nor an e-mail address: nothing can
 *        be proved here; the visitor creates an account and links the subscription (link
 *        subscription's own checks) or contacts customer service. The spec's email_required (an
 *        address typed by the visitor opens an account for the partner) would link a person's data to an
 *        address nobody proved (docs/architecture.md "Sign-in safety").
 *    An `email` in the body (the renewal form's prefill, account-flows.md §2) decides nothing.
 *  - POST /login/email-zip {email, zipcode}: 202 {status: sent} always; the mail sender mails a
 *    login link when the account speaks for a partner with that zip code (authService).
 * Both are rate-limited per client and per order number or address.
 */
export function partialLoginRoutes(deps: {
  db: Database;
  auth: AuthService;
  now: () => Date;
  signInLimits?: SignInLimits;
}): Router {
  const router = Router();
  const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;

  router.post('/login/order-number', validateBody('order-number-login-request'), async (req, res) => {
    const { tenant } = tenantContext(res);
    const { lastName, flow } = req.body as {
      orderNumber: string;
      lastName: string;
      flow?: 'renewal' | 'upgrade';
    };
    // The anonymous renewal and upgrade screens (account-flows.md §2) log in for their flow.
    if (flow) requireFeature(tenant, flow);
    // account-flows.md §5 "Renewal/upgrade": the order number is 10 digits starting with 4, the
    // screen's own rule; not a guess, so it counts against no limit.
    if (flow && !isRenewalOrderNumber(String(req.body.orderNumber)))
      throw badRequest('validation_failed', 'The request is not valid.', [
        { field: '/orderNumber', message: 'must be 10 digits starting with 4' },
      ]);
    const orderNumber = String(req.body.orderNumber).padStart(10, '0');
    const client = req.ip ?? 'unknown';
    await guessingOrderNumber(
      deps.db,
      tenant.id,
      limits,
      { orderNumber, client },
      deps.now(),
      async () => {
        const partners = await partnersOfOrderNumber(deps.db, tenant.id, orderNumber);
        if (partners.length === 0)
          throw result('not_found', 'There is no subscription with this order number.');
        // A renewal and an upgrade are the ordering party's (engine/domain/cardCapabilities.ts
        // renewalRule, capabilities.ts upgradeRule): the name is checked against theirs alone, so no
        // gift's recipient is mailed a link to a page that would refuse them. The plain sign-in by
        // order number is the goods recipient's too.
        const partner = partners
          .filter((p) => !flow || p.role === 'AG')
          .find((p) => sameName(p.lastName, lastName) || sameName(p.company, lastName));
        if (!partner)
          throw result('verification_failed', 'The name does not match the order number.', {
            method: 'name',
          });
        // The flow's own gate for the subscription's publication (portal-core.md §6 "per-publication
        // blacklists"), as its signed-in calls check it: no link is mailed for a flow the subscription
        // cannot enter. The answer does not name the publication.
        if (flow && !isFeatureOn(tenant, flow, partner.publication))
          throw refuse.featureDisabled(`${flow} for this subscription`);

        // The partner's own address on record first: an account may speak for the partner only through
        // link subscription's knowledge checks (order number and zip), so it must not outrank the
        // address the publisher holds; the account's address only when the partner has none.
        const address = partner.email?.trim()
          ? normalizeEmail(partner.email)
          : (partner.accountEmail ?? undefined);
        if (!address) {
          throw result(
            'no_email_on_record',
            'No e-mail address is on record for this subscription. Please create an account and link the subscription, or contact customer service.',
          );
        }
        await deps.auth.sendPartnerSignInLink(
          tenant,
          {
            email: address,
            bpNumbers: [partner.bpNumber],
            subscriptionId: partner.subscriptionId,
            loginSource: 'order-number',
            returnTo: flow
              ? `/subscriptions/${encodeURIComponent(partner.subscriptionId)}/${flow}?returnTo=${flow}`
              : `/subscriptions/${encodeURIComponent(partner.subscriptionId)}`,
          },
          requestOrigin(req, res),
        );
        throw result(
          'confirm_email',
          'A sign-in link has been sent to the e-mail address on record for this subscription.',
          { maskedEmail: maskEmail(address) },
        );
      },
      isWrongOrderNumberGuess,
    );
  });

  router.post('/login/email-zip', trimEmail, validateBody('email-zip-login-request'), async (req, res) => {
    await deps.auth.requestEmailZipLink(
      tenantContext(res).tenant,
      { email: req.body.email, zipcode: req.body.zipcode },
      requestOrigin(req, res),
    );
    res.status(202).json({ status: 'sent' });
  });

  return router;
}
