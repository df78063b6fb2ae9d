import { Router } from 'express';
import type { OperatorRouterFactory } from '../operatorApi';
import { operatorKey } from './operatorAuth';
import { requestTenant } from '../../tenancy/tenantContext';

/**
 * `GET /operator/v1/whoami`: which key the call carried — tenant, prefix, name, scopes —
 * so an operator can test a new key with one curl before wiring the order system. Any scope.
 */
export const whoamiRouter: OperatorRouterFactory = () => {
  const router = Router();
  router.get('/whoami', (_req, res) => {
    const key = operatorKey(res);
    res.json({
      tenant: requestTenant(res).id,
      key: { id: key.id, prefix: key.prefix, name: key.name, scopes: key.scopes },
    });
  });
  return router;
};
