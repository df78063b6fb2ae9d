import { Router } from 'express';
import type { Database } from '../db/database';
import { HttpError, unauthorized } from '../http/errors';
import { validateBody } from '../http/validateBody';
import { tenantContext, type ServerTenant } from '../tenancy/tenantContext';
import { createUser, findUserByEmail, linkBusinessPartner } from '../store/userStore';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { maskEmail } from '../../engine/domain/fieldRules';
import { normalizeEmail } from '../../engine/domain/fieldRules';
import type { AuthService } from './authService';
import { limitSignInAttempt, DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './rateLimit';
import { accountHasZipCode, partnersOfOrderNumber } from './partialLoginStore';
import { consumeLoginToken, insertLoginToken } from './authStore';
import { hashToken, newSecretToken } from './tokens';

const CONFIRM_PURPOSE = 'confirm-order-number';

/** A refused order-number login: 400 whose details carry the §4 result (status, maskedEmail, email). */
function result(status: string, message: string, extra: Record<string, string> = {}): HttpError {
  return new HttpError(400, status, message, { status, ...extra });
}

const sameName = (a: string | null, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The partial logins of portal-core.md §4 and §7:
 *  - POST /login/order-number {orderNumber, lastName, email?}: "logged in only" (no sidebar),
 *    scoped to the one subscription; the anonymous renewal, upgrade and cancellation flows start here.
 *    How this server decides (the spec names the results, not the rules):
 *      not_found — no subscription with that order number;
 *      verification_failed — the last name matches neither the ordering party nor the goods recipient;
 *      confirm_email — the partner has an account (or an e-mail on record) and the request does not
 *        bring that address yet: the dialog shows it masked; resubmitting with the returned
 *        single-use `confirmToken` confirms (the spec's "e-mail returned by the server" is not
 *        returned in clear: an order number and a name must not reveal someone's address);
 *      email_required — no account and no e-mail on record: the form asks for one;
 *      email_taken — the e-mail given already has an account (log in first), as for the contact form.
 *  - POST /login/email-zip {email, zipcode}: fully logged in when the account's business partner has
 *    that zip code. Wrong pairs and unknown addresses get the same 401.
 * Both are rate-limited per client and per order number or address.
 */
export function partialLoginRoutes(deps: { db: Database; auth: AuthService; now: () => Date; signInLimits?: SignInLimits }): Router {
  const router = Router();
  const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;

  router.post('/login/order-number', validateBody('order-number-login-request'), async (req, res) => {
    const { tenant } = tenantContext(res);
    const { lastName } = req.body as { orderNumber: string; lastName: string; email?: string; confirmToken?: string };
    // One budget per order, however many leading zeros are typed.
    const orderNumber = String(req.body.orderNumber).padStart(10, '0');
    const email = req.body.email ? normalizeEmail(req.body.email) : undefined;
    await limitSignInAttempt(deps.db, tenant.id, limits, 'order-number', { address: orderNumber, client: req.ip ?? 'unknown' }, deps.now());
    const partners = await partnersOfOrderNumber(deps.db, tenant.id, orderNumber);
    if (partners.length === 0) throw result('not_found', 'There is no subscription with this order number.');
    const partner = partners.find((p) => sameName(p.lastName, lastName) || sameName(p.company, lastName));
    if (!partner) throw result('verification_failed', 'The name does not match the order number.', { method: 'name' });

    // confirm_email: the address on record is shown masked; confirming sends back a single-use
    // token (not the address itself: knowing an order number and a name must not reveal it).
    const confirmed = req.body.confirmToken
      ? await consumeLoginToken(deps.db, tenant.id, hashToken(req.body.confirmToken), CONFIRM_PURPOSE, deps.now())
      : undefined;
    if (req.body.confirmToken && (!confirmed || (confirmed.payload as { bpNumber?: string }).bpNumber !== partner.bpNumber)) {
      throw result('confirm_email_expired', 'The confirmation has expired. Please start again.');
    }
    const askToConfirm = async (address: string) => {
      const token = newSecretToken();
      await insertLoginToken(deps.db, tenant.id, {
        tokenHash: hashToken(token),
        email: address,
        purpose: CONFIRM_PURPOSE,
        expiresAt: new Date(deps.now().getTime() + 10 * 60_000),
        payload: { bpNumber: partner.bpNumber },
      });
      return result('confirm_email', 'Please confirm the e-mail address of this subscription.', { maskedEmail: maskEmail(address), confirmToken: token });
    };
    const confirmedEmail = confirmed?.email;

    // Decide first (confirmation tokens are written outside any transaction that could roll back).
    if (partner.accountId && confirmedEmail !== partner.accountEmail && email !== partner.accountEmail) throw await askToConfirm(partner.accountEmail!);
    const address = email ?? confirmedEmail;
    if (!partner.accountId && !address) {
      if (partner.email) throw await askToConfirm(normalizeEmail(partner.email));
      throw result('email_required', 'An e-mail address is needed to continue.');
    }
    const user = partner.accountId
      ? { id: partner.accountId, email: partner.accountEmail! }
      : await deps.db.transaction(async (tx) => {
          if (await findUserByEmail(tx, tenant.id, address!)) {
            throw result('email_taken', 'This e-mail address already has an account. Please log in first.');
          }
          const created = await createUser(tx, tenant.id, { email: address! });
          await linkBusinessPartner(tx, tenant.id, created.id, partner.bpNumber);
          return created;
        });
    const login = await deps.auth.startSession(tenant, user, 'order-number', partner.subscriptionId);
    const subscription = await getSubscriptionForUser(deps.db, tenant.id, user.id, partner.subscriptionId);
    res.json({ ...login, subscription });
  });

  router.post('/login/email-zip', validateBody('email-zip-login-request'), async (req, res) => {
    const tenant: ServerTenant = tenantContext(res).tenant;
    const email = normalizeEmail(req.body.email);
    await limitSignInAttempt(deps.db, tenant.id, limits, 'email-zip', { address: email, client: req.ip ?? 'unknown' }, deps.now());
    const user = await findUserByEmail(deps.db, tenant.id, email);
    if (!user || !(await accountHasZipCode(deps.db, tenant.id, user.id, req.body.zipcode))) {
      throw unauthorized('invalid_credentials', 'The e-mail address and the zip code do not match.');
    }
    res.json(await deps.auth.startSession(tenant, user, 'email-zip'));
  });

  return router;
}
