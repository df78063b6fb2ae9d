/**
 * The e-mail widget's calls (account-flows.md §7 POST /link-email; docs/subscribers.md "E-mail widget" for
 * the mailed link): the form's request always answers 202 `check_inbox`, whatever matched, after the
 * same work (one queued job; the mail sender matches, emailWidgetMailJobs.ts); the link's
 * page confirms with POST /link-email/confirm and downloads rewards with its token. Rate-limited
 * like the anonymous sign-ins: per client and per order number and client; the links one mailbox
 * gets are capped where they are made (docs/architecture.md "Sign-in safety").
 */
import { Router, type Request, type Response } from 'express';
import { requestOrigin } from '../http/requestOrigin';
import { trimEmail } from '../http/trimEmail';
import {
  DEFAULT_SIGN_IN_LIMITS,
  limitOrderNumberAttempt,
  spendingLinkToken,
  type SignInLimits,
} from '../auth/rateLimit';
import type { Database } from '../db/database';
import { validateBody } from '../http/validateBody';
import { badRequest } from '../http/errors';
import type { LinkEmailRequest } from '../../schemas/generated/link-email-request';
import { requestLocale } from '../tenancy/requestLocale';
import { requestTenant } from '../tenancy/tenantContext';
import type { ApiSlice } from '../tenancy/apiSlice';
import type { EmailWidget } from './emailWidgetService';

/** The e-mail widget's calls (account-flows.md §2, §7), only while the tenant has the email-widget feature. */
export function emailWidgetSlice(deps: {
  db: Database;
  emailWidget: EmailWidget;
  now: () => Date;
  signInLimits?: SignInLimits;
}): ApiSlice {
  const router = Router();

  router.post('/link-email', trimEmail, validateBody('link-email-request'), async (req, res) => {
    const tenant = requestTenant(res);
    const origin = requestOrigin(req, res);
    const body = req.body as LinkEmailRequest;
    const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
    await limitOrderNumberAttempt(deps.db, tenant.id, limits, body.orderNumber, origin.client, deps.now());
    await deps.emailWidget.request(
      tenant,
      body,
      { portalUrl: origin.portalUrl, locale: requestLocale(req, tenant, body.locale) },
      { windowSeconds: limits.windowSeconds, perAddress: limits.perAddress },
    );
    // The same answer whether or not anything matched (no probing of order numbers or addresses).
    res.status(202).json({ status: 'check_inbox' });
  });

  // The mailed link's token, here and for its rewards: refused ones count against the client as a
  // sign-in link's do.
  const spending = <T>(req: Request, res: Response, attempt: () => Promise<T>) =>
    spendingLinkToken(
      deps.db,
      requestTenant(res).id,
      deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS,
      requestOrigin(req, res).client,
      deps.now(),
      attempt,
    );

  router.post('/link-email/confirm', validateBody('widget-token-request'), async (req, res) => {
    const tenant = requestTenant(res);
    res.json(
      await spending(req, res, () =>
        deps.emailWidget.confirm(tenant, String(req.body.token), requestLocale(req, tenant)),
      ),
    );
  });

  router.get('/link-email/rewards/:key', async (req, res) => {
    const tenant = requestTenant(res);
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (token.length < 20 || token.length > 200)
      throw badRequest('validation_failed', 'The link is not valid.', [
        { field: 'query/token', message: 'is invalid' },
      ]);
    const file = await spending(req, res, () =>
      deps.emailWidget.rewardFile(tenant, token, String(req.params.key), requestLocale(req, tenant)),
    );
    res
      .set('cache-control', 'private, no-store')
      // Opened as a download, never rendered in the portal's origin.
      .set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .set('content-disposition', `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
      .type('image/svg+xml')
      .send(file.content);
  });

  return { feature: 'email-widget', router };
}
