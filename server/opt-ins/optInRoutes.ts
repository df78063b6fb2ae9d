/**
 * The opt-in calls (account-flows.md §7): GET and POST /subscriptions/{id}/business-partners/
 * {bpNumber}/opt-ins, and for the double opt-in link's page (the portal's /opt-ins/confirm,
 * engine/features/opt-ins/OptInConfirmScreen.tsx) whether a link still confirms something (GET
 * /opt-ins/confirm/state?token → { open, optIns }) and the confirmation (POST /opt-ins/confirm {token}), open
 * without a session: the link is the proof.
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
import { href, ROUTES } from '../../engine/domain/routeRefs';
import type { OptIns } from './optInService';

/** A link's state that opens nothing: its answer, carried through the refused attempt. */
class ClosedLink extends Error {
  constructor(readonly answer: { open: boolean; optIns: string[] }) {
    super('closed link');
  }
}

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

  router.get('/opt-ins/confirm/state', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    // What the link's page offers changes once the link is spent: never a kept answer.
    const tenant = requestTenant(res);
    // A token that opens nothing is a refused one, and counts against the client as on every link.
    const state = await deps.auth
      .spendingToken(tenant, requestOrigin(req, res).client, async () => {
        const answer = await deps.optIns.linkState(tenant, token, requestLocale(req, tenant));
        if (!answer.open) throw new ClosedLink(answer);
        return answer;
      })
      .catch((error: unknown) => {
        if (error instanceof ClosedLink) return error.answer;
        throw error;
      });
    res.set('cache-control', 'no-store').json(state);
  });
  // The mails sent before the page was the portal's linked here: they open it, token and language kept.
  router.get('/opt-ins/confirm', (req, res) => {
    const kept = (name: string) =>
      typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined;
    const page = href(ROUTES.optInConfirm, {}, { token: kept('token'), lang: kept('lang') });
    res.set('referrer-policy', 'no-referrer').redirect(303, `${tenantContext(res).basePath}${page.slice(1)}`);
  });
  router.post('/opt-ins/confirm', validateBody('opt-in-confirm-request'), async (req, res) => {
    const tenant = requestTenant(res);
    const confirmed = await deps.auth.spendingToken(tenant, requestOrigin(req, res).client, async () => {
      const answer = await deps.optIns.confirm(tenant, String(req.body.token));
      if (!answer) throw notFound('This link has expired or has been used already.');
      return answer;
    });
    res.json({ status: 'confirmed', types: confirmed.types });
  });
  return router;
}
