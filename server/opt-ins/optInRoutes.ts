/**
 * The opt-in calls (account-flows.md §7): GET and POST /subscriptions/{id}/business-partners/
 * {bpNumber}/opt-ins, and the double opt-in link's page (GET /opt-ins/confirm?token) and its
 * confirmation (POST /opt-ins/confirm {token}), open without a session: the link is the proof.
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { requestOrigin } from '../http/requestOrigin';
import { notFound } from '../http/errors';
import { validateBody } from '../http/validateBody';
import type { OptInsRequest } from '../../schemas/generated/opt-ins-request';
import { accountCaller } from '../account/accountContext';
import { requestLocale } from '../tenancy/requestLocale';
import { requestTenant, tenantContext } from '../tenancy/tenantContext';
import { OPT_IN_CONFIRM_SCRIPT, optInConfirmPage } from './optInConfirmPage';
import type { OptIns } from './optInService';

const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

export function optInRoutes(deps: { auth: AuthService; optIns: OptIns }): Router {
  const router = Router();

  router.get(
    '/subscriptions/:id/business-partners/:bpNumber/opt-ins',
    requireUser(deps.auth),
    async (req, res) => {
      res.json(
        await deps.optIns.list(accountCaller(req, res), String(req.params.id), String(req.params.bpNumber)),
      );
    },
  );
  router.post(
    '/subscriptions/:id/business-partners/:bpNumber/opt-ins',
    requireUser(deps.auth),
    validateBody('opt-ins-request'),
    async (req, res) => {
      const answer = await deps.optIns.change(
        accountCaller(req, res),
        String(req.params.id),
        String(req.params.bpNumber),
        req.body as OptInsRequest,
        requestOrigin(req, res).portalUrl,
      );
      res.json(answer);
    },
  );

  router.get(
    '/opt-ins/confirm.js',
    (_req, res) =>
      void res.type('application/javascript').set('cache-control', 'no-cache').send(OPT_IN_CONFIRM_SCRIPT),
  );
  router.get('/opt-ins/confirm', async (req, res) => {
    const tenant = requestTenant(res);
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const open = await deps.optIns.linkIsOpen(tenant, token);
    // The page speaks the language of the e-mail that linked to it (`lang`), else the browser's.
    res
      .type('html')
      .set('content-security-policy', PAGE_POLICY)
      .set('referrer-policy', 'no-referrer')
      // What the page offers changes once the link is spent: never a kept copy with the button.
      .set('cache-control', 'no-store')
      .send(
        optInConfirmPage({
          tenantName: tenant.name,
          locale: requestLocale(req, tenant, req.query.lang),
          basePath: tenantContext(res).basePath,
          token,
          open,
        }),
      );
  });
  router.post('/opt-ins/confirm', validateBody('opt-in-confirm-request'), async (req, res) => {
    const confirmed = await deps.optIns.confirm(requestTenant(res), String(req.body.token));
    if (!confirmed) throw notFound('This link has expired or has been used already.');
    res.json({ status: 'confirmed', types: confirmed.types });
  });
  return router;
}
