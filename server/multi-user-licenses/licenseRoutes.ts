/**
 * The licence calls (account-flows.md §7), under the tenant's /api:
 *   GET    /subscriptions/{id}/licenses
 *   GET    /subscriptions/{id}/license-managers
 *   GET    /subscriptions/{id}/objects/{orderNumber}/licenses/{licenseId}/business-partner
 *   POST   /subscriptions/{id}/objects/{orderNumber}/licenses                      {businessPartner, reactivatable, sendInvitation}
 *   POST   /subscriptions/{id}/objects/{orderNumber}/licenses/{licenseId}          {isActive}
 *   POST   /subscriptions/{id}/objects/{orderNumber}/licenses/{licenseId}/send-invitation
 *   DELETE /subscriptions/{id}/objects/{orderNumber}/licenses/{licenseId}
 *   POST   /subscriptions/{id}/license-managers                                    manager data
 *   DELETE /subscriptions/{id}/license-managers/{bpNumber}
 *   GET    /subscriptions/{id}/license-manager-appointments                         the pending appointment
 *   DELETE /subscriptions/{id}/license-manager-appointments/{appointmentId}         withdraws it
 *   GET    /subscriptions/{id}/license-manager-appointments/{appointmentId}?token=… anonymous: the confirm link
 *   POST   /subscriptions/{id}/license-manager-appointments/{appointmentId}         anonymous: {token}, confirms
 *   GET    /subscriptions/{id}/licenses/{licenseId}/accept?token=…                 anonymous: the accept URL itself
 *   POST   /subscriptions/{id}/licenses/{licenseId}/accept                         anonymous: {token, businessPartner, role, academicYear}
 * Routes parse and validate; server/multi-user-licenses/licenseService.ts decides.
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { requestOrigin } from '../http/requestOrigin';
import { validateBody } from '../http/validateBody';
import { accountCaller } from '../account/accountContext';
import { requestTenant } from '../tenancy/tenantContext';
import type { LicenseAddRequest } from '../../schemas/generated/license-add-request';
import type { LicenseAcceptRequest } from '../../schemas/generated/license-accept-request';
import type { LicensePersonRequest } from '../../schemas/generated/license-person-request';
import type { LicenseManagerConfirmRequest } from '../../schemas/generated/license-manager-confirm-request';
import type { Licenses } from './licenseService';

const OBJECT = '/subscriptions/:id/objects/:orderNumber/licenses';

export function licenseRoutes(deps: { auth: AuthService; licenses: Licenses }): Router {
  const router = Router();
  const user = requireUser(deps.auth);
  const { licenses } = deps;
  const p = (value: unknown) => String(value);

  router.get('/subscriptions/:id/licenses', user, async (req, res) => {
    res.json(await licenses.list(accountCaller(req, res), p(req.params.id)));
  });
  router.get('/subscriptions/:id/license-managers', user, async (req, res) => {
    res.json(await licenses.managers(accountCaller(req, res), p(req.params.id)));
  });
  router.get(`${OBJECT}/:licenseId/business-partner`, user, async (req, res) => {
    res.json(
      await licenses.partner(
        accountCaller(req, res),
        p(req.params.id),
        p(req.params.orderNumber),
        p(req.params.licenseId),
      ),
    );
  });
  router.post(OBJECT, user, validateBody('license-add-request'), async (req, res) => {
    const answer = await licenses.add(
      accountCaller(req, res),
      p(req.params.id),
      p(req.params.orderNumber),
      req.body as LicenseAddRequest,
      requestOrigin(req, res).portalUrl,
    );
    res.status(201).json(answer);
  });
  router.post(`${OBJECT}/:licenseId`, user, validateBody('license-update-request'), async (req, res) => {
    res.json(
      await licenses.setActive(
        accountCaller(req, res),
        p(req.params.id),
        p(req.params.orderNumber),
        p(req.params.licenseId),
        Boolean(req.body.isActive),
      ),
    );
  });
  router.post(`${OBJECT}/:licenseId/send-invitation`, user, async (req, res) => {
    await licenses.sendInvitation(
      accountCaller(req, res),
      p(req.params.id),
      p(req.params.orderNumber),
      p(req.params.licenseId),
      requestOrigin(req, res).portalUrl,
    );
    res.status(204).end();
  });
  router.delete(`${OBJECT}/:licenseId`, user, async (req, res) => {
    await licenses.remove(
      accountCaller(req, res),
      p(req.params.id),
      p(req.params.orderNumber),
      p(req.params.licenseId),
    );
    res.status(204).end();
  });
  // Answers the pending appointment (202): the person becomes manager only by confirming the mailed link.
  router.post(
    '/subscriptions/:id/license-managers',
    user,
    validateBody('license-person-request'),
    async (req, res) => {
      res
        .status(202)
        .json(
          await licenses.replaceManager(
            accountCaller(req, res),
            p(req.params.id),
            req.body as LicensePersonRequest,
            requestOrigin(req, res).portalUrl,
          ),
        );
    },
  );
  router.get('/subscriptions/:id/license-manager-appointments', user, async (req, res) => {
    res.json(await licenses.appointments(accountCaller(req, res), p(req.params.id)));
  });
  router.delete('/subscriptions/:id/license-manager-appointments/:appointmentId', user, async (req, res) => {
    await licenses.withdrawAppointment(
      accountCaller(req, res),
      p(req.params.id),
      p(req.params.appointmentId),
    );
    res.status(204).end();
  });
  router.delete('/subscriptions/:id/license-managers/:bpNumber', user, async (req, res) => {
    await licenses.deleteManager(accountCaller(req, res), p(req.params.id), p(req.params.bpNumber));
    res.status(204).end();
  });

  return router;
}

/**
 * The accept URL (GET with the token, POST with the form): anonymous, the invitation's token is the
 * proof (account-flows.md §1, §6). Mounted before the subscription routes, which require a user for
 * everything else under /subscriptions.
 */
export function licenseAcceptRoutes(deps: { licenses: Licenses }): Router {
  const router = Router();
  const { licenses } = deps;
  const p = (value: unknown) => String(value);
  router.get('/subscriptions/:id/licenses/:licenseId/accept', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    res.set('referrer-policy', 'no-referrer');
    res.json(
      await licenses.acceptInfo(
        requestTenant(res),
        p(req.params.id),
        p(req.params.licenseId),
        token,
        req.ip ?? 'unknown',
      ),
    );
  });
  router.post(
    '/subscriptions/:id/licenses/:licenseId/accept',
    validateBody('license-accept-request'),
    async (req, res) => {
      res.json(
        await licenses.accept(
          requestTenant(res),
          p(req.params.id),
          p(req.params.licenseId),
          req.body as LicenseAcceptRequest,
          req.ip ?? 'unknown',
        ),
      );
    },
  );
  // The licence-manager appointment's confirm link: GET shows what is confirmed, POST confirms.
  router.get('/subscriptions/:id/license-manager-appointments/:appointmentId', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    res.set('referrer-policy', 'no-referrer');
    res.json(
      await licenses.appointmentInfo(
        requestTenant(res),
        p(req.params.id),
        p(req.params.appointmentId),
        token,
        req.ip ?? 'unknown',
      ),
    );
  });
  router.post(
    '/subscriptions/:id/license-manager-appointments/:appointmentId',
    validateBody('license-manager-confirm-request'),
    async (req, res) => {
      const body = req.body as LicenseManagerConfirmRequest;
      res.json(
        await licenses.confirmManager(
          requestTenant(res),
          p(req.params.id),
          p(req.params.appointmentId),
          body.token,
          req.ip ?? 'unknown',
        ),
      );
    },
  );
  return router;
}
