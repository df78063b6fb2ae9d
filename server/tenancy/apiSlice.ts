import { Router, type RequestHandler } from 'express';
import { isSwitchedOn } from '../../engine/domain/featureCatalog';
import type { FeatureFlag } from '../../engine/domain/featureFlags';
import { featureCatalog } from '../../tenant/featureCatalog';
import { refuse } from './refusals';
import { requestTenant } from './tenantContext';

/**
 * A server slice of one switchable feature: its router and what switches every route of it
 * (portal-core.md §6 "Tenant feature list"), gated once where it is mounted (a feature manifest's
 * `{ slice }`, server/featureManifest.ts) instead of each handler asking. Routes shared by several features, or gated per publication (a
 * capability rule of engine/domain/capabilities.ts), stay in slices without a gate and ask explicitly.
 */
export type ApiSlice = { router: Router } & (
  | {
      /**
       * The feature of the registry the slice serves (its folder under engine/features/, the
       * slice's own folder name): the flags that switch it are the ones the feature declares, read
       * from the feature catalog (schemas/generated/feature-catalog.json), never written again here.
       */
      feature: string;
    }
  | {
      /** A switch that is no feature of the registry of its own (kicker-auth: a sign-in method of login). */
      flag: FeatureFlag;
    }
);

/** The flags that switch the slice on, any one of them; a slice nothing switches is a mistake. */
function flagsOf(slice: ApiSlice): readonly string[] {
  if ('flag' in slice) return [slice.flag];
  const feature = featureCatalog().features.find((candidate) => candidate.id === slice.feature);
  if (!feature)
    throw new Error(`server slice gated by "${slice.feature}": no such feature in engine/features/index.ts`);
  if (feature.flags.length === 0)
    throw new Error(
      `server slice gated by "${slice.feature}": the feature has no flag, nothing switches it off`,
    );
  return feature.flags;
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
 * The slice behind its gate: while the tenant has none of its flags on, each of the slice's routes
 * answers 403 `feature_disabled` (server/tenancy/refusals.ts) before its own middleware (sign-in,
 * validation) runs; a request no route of the slice serves goes on to the next router untouched,
 * so a switched-off feature never hides another one's routes or the JSON 404. An unknown feature
 * fails when the API is built, naming it.
 */
export function gatedSlice(slice: ApiSlice): Router {
  const flags = flagsOf(slice);
  const gate: RequestHandler = (_req, res, next) => {
    if (!isSwitchedOn(flags, requestTenant(res).features)) throw refuse.featureDisabled(flags.join(' or '));
    next();
  };
  const gated = Router();
  for (const { method, path } of routesOf(slice.router)) gated[method](path, gate);
  gated.use(slice.router);
  return gated;
}
