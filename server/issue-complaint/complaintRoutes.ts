/**
 * The complaint calls (account-flows.md §7): POST …/delivered-issues/compensation-options and
 * …/request-compensation, plus GET /subscriptions/{id}/complaint (the eligible issues and reasons
 * the form starts from; its path is not shown in the spec).
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import { validateBody } from '../http/validateBody';
import type { CompensationRequest } from '../../schemas/generated/compensation-request';
import { accountCaller } from '../account/accountContext';
import type { ComplaintService } from './complaintService';

export function complaintRoutes(deps: { auth: AuthService; complaints: ComplaintService }): Router {
  const router = Router();
  router.use('/subscriptions/:id', requireUser(deps.auth));

  router.get('/subscriptions/:id/complaint', async (req, res) => {
    res.json(await deps.complaints.state(accountCaller(req, res), String(req.params.id)));
  });
  router.post(
    '/subscriptions/:id/delivered-issues/compensation-options',
    validateBody('compensation-options-request'),
    async (req, res) => {
      res.json(
        await deps.complaints.options(accountCaller(req, res), String(req.params.id), String(req.body.issue)),
      );
    },
  );
  router.post(
    '/subscriptions/:id/delivered-issues/request-compensation',
    validateBody('compensation-request'),
    async (req, res) => {
      res.json(
        await deps.complaints.request(
          accountCaller(req, res),
          res,
          String(req.params.id),
          req.body as CompensationRequest,
        ),
      );
    },
  );
  return router;
}
