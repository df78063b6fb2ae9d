import { Router } from 'express';
import type { OperatorRouterFactory } from '../operatorApi';
import { requireScope, operatorKey } from '../keys/operatorAuth';
import { validateBody, validateQuery, validQuery } from '../../http/validateBody';
import { guardRequestInput } from '../../http/inputGuard';
import { requestTenant } from '../../tenancy/tenantContext';
import { operatorJsonBody } from '../operatorInputGuard';
import type { OperatorChangeQuery } from '../../../schemas/generated/operator-change-query';
import type { OperatorChangeAcknowledgement } from '../../../schemas/generated/operator-change-acknowledgement';
import { acknowledgeChange, listChanges } from './changeFeed';

/**
 * The change feed (docs/going-live.md "4. The change feed"):
 * `GET /operator/v1/changes?after&limit&status` (scope read) and
 * `POST /operator/v1/changes/{eventId}/acknowledgement` (scope write). The portal's input guard
 * applies here as on /api (no NUL bytes, no oversized strings reach the database): a reason is
 * shown to subscribers and e-mailed to them. Input is read after the key's scope is checked.
 */
export const changeFeedRouter: OperatorRouterFactory = (deps) => {
  const router = Router();
  router.get(
    '/changes',
    requireScope('read'),
    guardRequestInput,
    validateQuery('operator-change-query'),
    async (_req, res) => {
      res.json(await listChanges(deps, requestTenant(res), validQuery<OperatorChangeQuery>(res)));
    },
  );
  router.post(
    '/changes/:eventId/acknowledgement',
    requireScope('write'),
    operatorJsonBody,
    guardRequestInput,
    validateBody('operator-change-acknowledgement'),
    async (req, res) => {
      const { created, acknowledgement } = await acknowledgeChange(
        deps,
        requestTenant(res),
        operatorKey(res).id,
        String(req.params.eventId),
        req.body as OperatorChangeAcknowledgement,
      );
      res.status(created ? 201 : 200).json(acknowledgement);
    },
  );
  return router;
};
