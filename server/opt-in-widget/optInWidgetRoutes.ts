/**
 * The opt-in widget's calls (account-flows.md §7 POST /opt-in; docs/subscribers.md "Opt-in widget"):
 * the page asks whether the provider has codes left, the sign-up answers 202 `confirmation_sent`
 * (the voucher code comes with the confirmation), the link's page confirms with POST /opt-in/confirm.
 * Rate-limited per client and per address and client; the mailbox's
 * budget is checked where the mail is made (optInWidgetService.ts signUp).
 */
import { Router } from 'express';
import type { ApiSlice } from '../tenancy/apiSlice';
import { requestOrigin } from '../http/requestOrigin';
import { trimEmail } from '../http/trimEmail';
import { DEFAULT_SIGN_IN_LIMITS, spendingLinkToken, type SignInLimits } from '../auth/rateLimit';
import type { Database } from '../db/database';
import { validateBody } from '../http/validateBody';
import type { OptInWidgetRequest } from '../../schemas/generated/opt-in-widget-request';
import { requestLocale } from '../tenancy/requestLocale';
import { requestTenant } from '../tenancy/tenantContext';
import type { OptInWidget } from './optInWidgetService';

/** The opt-in widget's calls (account-flows.md §2, §7): a sign-up to the tenant's opt-ins, only while it has the opt-in-widget feature's flag (opt-ins). */
export function optInWidgetSlice(deps: {
  db: Database;
  optInWidget: OptInWidget;
  now: () => Date;
  signInLimits?: SignInLimits;
}): ApiSlice {
  const router = Router();

  router.get('/opt-in/providers/:provider', async (req, res) => {
    res.json(await deps.optInWidget.provider(requestTenant(res), String(req.params.provider)));
  });

  router.post('/opt-in', trimEmail, validateBody('opt-in-widget-request'), async (req, res) => {
    const tenant = requestTenant(res);
    const body = req.body as OptInWidgetRequest;
    const origin = requestOrigin(req, res);
    await deps.optInWidget.signUp(
      tenant,
      body,
      {
        portalUrl: origin.portalUrl,
        locale: requestLocale(req, tenant, body.locale),
        client: origin.client,
      },
      deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS,
    );
    res.status(202).json({ status: 'confirmation_sent' });
  });

  // The mailed link's token: refused ones count against the client as a sign-in link's do.
  router.post('/opt-in/confirm', validateBody('widget-token-request'), async (req, res) => {
    const tenant = requestTenant(res);
    const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
    const client = requestOrigin(req, res).client;
    res.json(
      await spendingLinkToken(deps.db, tenant.id, limits, client, deps.now(), () =>
        deps.optInWidget.confirm(tenant, String(req.body.token)),
      ),
    );
  });

  return { feature: 'opt-in-widget', router };
}
