import type { FeatureRoutes } from '../core/featureRoutes';
import type { PortalTenant } from '../domain/portalConfig';
import { isActionOpenTo, isRouteServed, mayOpenRoute, subscriptionActions } from '../features';

/**
 * The registry's answers for one tenant, handed down to the screens through
 * engine/core/featureRoutes.tsx: the shell is the only reader of engine/features/index.ts, so the
 * parts the features share never import every feature (docs/architecture.md "Architecture").
 */
export function featureRoutesOf(tenant: PortalTenant): FeatureRoutes {
  return {
    isServed: (ref) => isRouteServed(tenant.features, ref),
    mayOpen: (scope, ref, params) => mayOpenRoute(scope, ref, params),
    // A "logged in only" session (portal-core.md §4) gets no button to a screen whose calls the
    // server refuses it (isActionOpenTo).
    subscriptionActions: (subscription, ctx, scope) =>
      subscriptionActions(tenant, subscription, ctx).filter((action) =>
        isActionOpenTo(scope, action, subscription),
      ),
  };
}
