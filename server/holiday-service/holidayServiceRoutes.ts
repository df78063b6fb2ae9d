/**
 * The holiday service calls (account-flows.md §7): POST /subscriptions/{id}/holiday-service and
 * /holiday-service/cancel, plus GET /subscriptions/{id}/holiday-service (the planned-service info of
 * §3, whose path the spec does not show) and GET /subscriptions/{id}/holiday-service/issues (the
 * issues of a date range: §7's GET /subscriptions/{id}/issues belongs to the issue calendar, which a
 * tenant may switch off while it offers the holiday service).
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { validateBody, validateQuery, validQuery } from '../http/validateBody';
import type { HolidayServiceRequest } from '../../schemas/generated/holiday-service-request';
import type { HolidayCancelRequest } from '../../schemas/generated/holiday-cancel-request';
import type { HolidayIssuesQuery } from '../../schemas/generated/holiday-issues-query';
import { accountCaller } from '../account/accountContext';
import type { HolidayServiceService } from './holidayService';

export function holidayServiceRoutes(deps: { auth: AuthService; holiday: HolidayServiceService }): Router {
  const router = Router();
  router.use('/subscriptions/:id', requireUser(deps.auth));

  router.get('/subscriptions/:id/holiday-service', async (req, res) => {
    res.json(await deps.holiday.state(accountCaller(req, res), String(req.params.id)));
  });

  router.get(
    '/subscriptions/:id/holiday-service/issues',
    validateQuery('holiday-issues-query'),
    async (req, res) => {
      res.json(
        await deps.holiday.issues(
          accountCaller(req, res),
          String(req.params.id),
          validQuery<HolidayIssuesQuery>(res),
        ),
      );
    },
  );

  router.post(
    '/subscriptions/:id/holiday-service',
    validateBody('holiday-service-request'),
    async (req, res) => {
      res.json(
        await deps.holiday.set(
          accountCaller(req, res),
          String(req.params.id),
          req.body as HolidayServiceRequest,
        ),
      );
    },
  );

  router.post(
    '/subscriptions/:id/holiday-service/cancel',
    validateBody('holiday-cancel-request'),
    async (req, res) => {
      res.json(
        await deps.holiday.cancel(
          accountCaller(req, res),
          String(req.params.id),
          (req.body as HolidayCancelRequest).service,
        ),
      );
    },
  );

  return router;
}
