import type { FeatureRoutes } from '../core/featureRoutes';
import type { PortalTenant } from '../domain/portalConfig';
import type { SubscriptionAction } from '../core/subscriptionActions';
import {
  allowedActions,
  isActionOpenTo,
  isRouteServed,
  loadSubscriptionActions,
  mayOpenRoute,
} from '../features';

/**
 * The registry's answers for one tenant, handed down to the screens through
 * engine/core/featureRoutes.tsx: the shell is the only reader of engine/features/index.ts, so the
 * parts the features share never import every feature (docs/architecture.md "Architecture").
 */
export function featureRoutesOf(tenant: PortalTenant): FeatureRoutes {
  // The actions' modules load once, when the subscription page first asks for them.
  let actions: Promise<readonly SubscriptionAction[]> | undefined;
  return {
    isServed: (ref) => isRouteServed(tenant.features, ref),
    mayOpen: (scope, ref, params) => mayOpenRoute(scope, ref, params),
    loadSubscriptionActions: () => (actions ??= loadSubscriptionActions(tenant.features)),
    // A "logged in only" session (portal-core.md §4) gets no button to a screen whose calls the
    // server refuses it (isActionOpenTo).
    subscriptionActions: (loaded, subscription, ctx, scope) =>
      allowedActions(tenant, loaded, subscription, ctx).filter((action) =>
        isActionOpenTo(scope, action, subscription),
      ),
  };
}
