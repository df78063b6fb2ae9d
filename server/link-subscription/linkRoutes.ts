import { Router } from 'express';
import type { Database } from '../db/database';
import {
  countingFailures,
  countingFailuresOfSecret,
  DEFAULT_SIGN_IN_LIMITS,
  guessingOrderNumber,
  isWrongOrderNumberGuess,
  signInRules,
  type SignInLimits,
} from '../auth/rateLimit';
import { currentUser, requireUser } from '../auth/authMiddleware';
import { optionalUser, userOrUndefined } from '../auth/optionalUser';
import type { AuthService } from '../auth/authService';
import { validateBody } from '../http/validateBody';
import { HttpError } from '../http/errors';
import { listSubscriptionsForUser } from '../store/subscriptionStore';
import type { ApiSlice } from '../tenancy/apiSlice';
import {
  confirmLink,
  linkConfirmDetails,
  linkSubscription,
  type LinkConfirmAnswer,
} from './linkSubscription';
import { requestOrigin } from '../http/requestOrigin';
import { linkFieldErrors, type LinkSettings } from '../../engine/domain/linkSubscription';
import type { LinkSubscriptionRequest } from '../../schemas/generated/link-subscription-request';
import { requestTenant } from '../tenancy/tenantContext';
import { requestLocale } from '../tenancy/requestLocale';

/**
 * A link attempt that counts against the budget: a failed proof (not found, wrong zip or name,
 * linked elsewhere, …) or a mail sent (confirm_email mails a link to the address on record: sends
 * count like failures, or the address could be sent mail, and a token written, without end). A form
 * mistake (validation_failed), a proof that held for a partner without an address on record
 * (no_email_on_record) and an attempt the order number's budget refused send nothing and prove
 * nothing wrong.
 */
function isFailedProof(error: unknown): boolean {
  // Refused before the proof was checked (the order number's budget): nothing was proved wrong.
  if (error instanceof HttpError && error.status === 429) return false;
  const status =
    error instanceof HttpError ? (error.details as { status?: string } | undefined)?.status : undefined;
  return !(status === 'validation_failed' || status === 'no_email_on_record');
}

/**
 * The fields a body the schema refused names, each with the §5 rule's error where the rule names
 * one (an order number of 11 digits, a zip code of 11 characters: the form's own messages), else
 * `invalid` (a value of the wrong type, which no form sends).
 */
function schemaFieldErrors(settings: LinkSettings, body: unknown, details: unknown): Record<string, string> {
  const given = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
  const texts = Object.fromEntries(Object.entries(given).filter(([, value]) => typeof value === 'string'));
  const byRule: Record<string, string | undefined> = linkFieldErrors(
    settings,
    { ...(texts as LinkSubscriptionRequest), byBpNumber: Boolean(texts.bpNumber) },
    { strictOrderNumber: true },
  );
  const fields: Record<string, string> = {};
  for (const problem of Array.isArray(details) ? (details as { field?: unknown }[]) : []) {
    const name = typeof problem.field === 'string' ? problem.field.split('/')[1] : undefined;
    if (name) fields[name] = byRule[name] ?? 'invalid';
  }
  return fields;
}

/**
 * POST /subscriptions (portal-core.md §7): link data; answers the linked subscription (201). Only
 * while the tenant links online (the link-subscription feature's flag, manual-registration),
 * gated where the slice is mounted.
 */
export function linkSlice(deps: {
  db: Database;
  auth: AuthService;
  mailFrom: string;
  now: () => Date;
  signInLimits?: SignInLimits;
}): ApiSlice {
  const router = Router();
  router.post('/subscriptions', requireUser(deps.auth), async (req, res, next) => {
    // Malformed bodies are validation_failed link results too (§8: a 400 whose result status selects the message).
    const tenant = requestTenant(res);
    const settings = {
      hasMultipleAvsClients: tenant.hasMultipleAvsClients,
      linkSubscription: tenant.linkSubscription,
    };
    try {
      validateBody('link-subscription-request')(req, res, () => undefined);
    } catch (error) {
      if (error instanceof HttpError)
        throw new HttpError(400, 'validation_failed', error.message, {
          status: 'validation_failed',
          fields: schemaFieldErrors(settings, req.body, error.details),
        });
      throw error;
    }
    // Linking adds partners to the account: a partial login (one subscription, §4) may not;
    // requireUser has refused it already (engine/domain/sessionScope.ts mayCall, 403 partial_login).
    const user = currentUser(res);
    // Order number plus zip or name is the proof of ownership: no guessing by the thousand. Only
    // checks that failed count: linking six subscriptions in a row is honest use.
    const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
    const client = req.ip ?? 'unknown';
    const rules = signInRules(limits, 'link', { address: user.id, client });
    // The proof is the anonymous partial logins' (an order number with a zip code or a name): its
    // wrong guesses count against the order number too, from every account and client together,
    // in the same budget (server/auth/rateLimit.ts guessingOrderNumber), or accounts by the dozen
    // could find a holder's zip code. A business partner number is a target of its own.
    const body = req.body as LinkSubscriptionRequest;
    const target = body.orderNumber
      ? body.orderNumber.padStart(10, '0')
      : `bp-${(body.bpNumber ?? '').replace(/^0+/, '')}`;
    const linked = await countingFailures(
      deps.db,
      tenant.id,
      rules,
      new Date(),
      () =>
        guessingOrderNumber(
          deps.db,
          tenant.id,
          limits,
          { orderNumber: target, client },
          deps.now(),
          () =>
            linkSubscription(
              deps.db,
              {
                tenantId: tenant.id,
                settings,
                user,
                mail: {
                  tenantName: tenant.name,
                  defaultLocale: tenant.defaultLocale,
                  mailFrom: deps.mailFrom,
                  origin: () => requestOrigin(req, res),
                  now: deps.now(),
                },
              },
              req.body ?? {},
            ),
          isWrongOrderNumberGuess,
        ),
      isFailedProof,
    );
    const subscriptions = await listSubscriptionsForUser(deps.db, tenant.id, user.id, {
      locale: requestLocale(req, tenant),
    });
    const subscription =
      subscriptions.find((s) => s.id === linked.subscriptionId) ??
      subscriptions.find(
        (s) => s.roles.length > 0 && s.businessPartners.some((b) => b.bpNumber === linked.bpNumber),
      );
    res.status(201).json(subscription ?? null);
    void next;
  });

  /**
   * POST /link-subscription/confirm { token }: the link mailed to the address on record by a
   * confirm_email answer, confirmed on the page it opens. No session needed: the mailbox is the
   * proof. Spent or unknown tokens count against the client as a sign-in link's do, and as there a
   * valid one is still tried over the budget (server/auth/rateLimit.ts countingFailuresOfSecret):
   * someone else's failures from the same address do not lock the link's owner out.
   */
  router.post(
    '/link-subscription/confirm',
    validateBody('link-confirm-request'),
    optionalUser(deps.auth),
    async (req, res) => {
      const tenant = requestTenant(res);
      const rules = signInRules(deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS, 'token', {
        client: req.ip ?? 'unknown',
      });
      const { userId, ...confirmed } = await countingFailuresOfSecret(
        deps.db,
        tenant.id,
        rules,
        deps.now(),
        () => confirmLink(deps.db, tenant.id, req.body.token, deps.now()),
      );
      // Whether the visitor's own session is the account that asked (the screen then shows the
      // new-subscription badge); the account's id itself is no anonymous caller's business.
      const answer: LinkConfirmAnswer = { ...confirmed, yours: userOrUndefined(res)?.id === userId };
      res.json(answer);
    },
  );
  /**
   * POST /link-subscription/confirm/details { token }: what the mailed link would link and to which
   * account (masked), leaving it unspent, for the page before its button. Unknown tokens count
   * against the client as the confirmation's do.
   */
  router.post(
    '/link-subscription/confirm/details',
    validateBody('link-confirm-request'),
    async (req, res) => {
      const tenant = requestTenant(res);
      const rules = signInRules(deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS, 'token', {
        client: req.ip ?? 'unknown',
      });
      res.json(
        await countingFailuresOfSecret(deps.db, tenant.id, rules, deps.now(), () =>
          linkConfirmDetails(deps.db, tenant.id, req.body.token, deps.now()),
        ),
      );
    },
  );
  return { feature: 'link-subscription', router };
}
