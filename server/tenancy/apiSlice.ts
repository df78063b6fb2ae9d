import { Router, type RequestHandler } from 'express';
import type { FeatureFlag } from '../../engine/domain/featureFlags';
import { requireFeature } from './refusals';
import { requestTenant } from './tenantContext';

/**
 * A server slice of one switchable feature: its router and the tenant feature flag that switches
 * every route of it (portal-core.md §6 "Tenant feature list"). The flag is declared here, once,
 * and server/apiRoutes.ts gates the slice where it mounts it, instead of each handler asking.
 * Routes shared by several features, or gated per publication (a capability rule of
 * engine/domain/capabilities.ts), stay in slices without a feature and ask explicitly.
 */
export interface ApiSlice {
  feature: FeatureFlag;
  router: Router;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

/** What Express keeps of a router's routes (`Router#stack`; tests/server/security/apiRouteList.ts reads it too). */
interface Layer {
  route?: { path: string | string[]; methods: Partial<Record<string, boolean>> };
}

/** The routes a router serves itself (not those of routers it mounts: a slice has none). */
function routesOf(router: Router): Array<{ method: Method; path: string | string[] }> {
  const stack = (router as unknown as { stack: Layer[] }).stack;
  return stack.flatMap(({ route }) =>
    route
      ? METHODS.filter((method) => route.methods[method]).map((method) => ({ method, path: route.path }))
      : [],
  );
}

/**
 * The slice behind its feature gate: while the tenant has the flag off, each of the slice's routes
 * answers 403 `feature_disabled` (server/tenancy/refusals.ts) before its own middleware (sign-in,
 * validation) runs; a request no route of the slice serves goes on to the next router untouched,
 * so a switched-off feature never hides another one's routes or the JSON 404.
 */
export function gatedSlice({ feature, router }: ApiSlice): Router {
  const gate: RequestHandler = (_req, res, next) => {
    requireFeature(requestTenant(res), feature);
    next();
  };
  const gated = Router();
  for (const { method, path } of routesOf(router)) gated[method](path, gate);
  gated.use(router);
  return gated;
}
