import { Router } from 'express';
import type { OperatorRouterFactory } from '../operatorApi';
import { requireScope } from '../keys/operatorAuth';
import { validateQuery, validQuery } from '../../http/validateBody';
import { badRequest } from '../../http/errors';
import { requestTenant } from '../../tenancy/tenantContext';
import type { OperatorInsightsQuery } from '../../../schemas/generated/operator-insights-query';
import {
  insightsPeriod,
  insightsPeriodProblem,
  MAX_INSIGHTS_PERIOD_DAYS,
  retentionInsights,
} from '../../insights/retentionInsights';

/**
 * `GET /operator/v1/insights?from&to` (scope read): the tenant's retention insights for
 * the publisher's own reporting (a BI tool, a dashboard), with a key like every operator call —
 * the same answer as `portal insights --json` and the studio's page. Never on the subscribers' /api.
 */
export const insightsRouter: OperatorRouterFactory = (deps) => {
  const router = Router();
  router.get(
    '/insights',
    requireScope('read'),
    validateQuery('operator-insights-query'),
    async (_req, res) => {
      const query = validQuery<OperatorInsightsQuery>(res);
      const period = insightsPeriod(deps.now(), query.from, query.to);
      const problem = insightsPeriodProblem(period);
      if (problem === 'after_to')
        throw badRequest('validation_failed', 'from is after to.', { fields: { from: 'after_to' } });
      if (problem === 'too_long')
        throw badRequest('validation_failed', 'The period is longer than 20 years.', [
          { field: 'query/from', message: `must be at most ${MAX_INSIGHTS_PERIOD_DAYS} days before to` },
        ]);
      res.json(await retentionInsights(deps.db, requestTenant(res), period, deps.now()));
    },
  );
  return router;
};
