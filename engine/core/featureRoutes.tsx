import { createContext, useContext, type ReactNode } from 'react';
import type { Subscription } from '../../schemas/generated/subscription';
import type { CapabilityContext } from '../domain/capabilities';
import type { RouteRef } from '../domain/routeRefs';
import type { SessionScope } from '../domain/sessionScope';
import { useSessionScope } from './authState';
import type { SubscriptionAction } from './subscriptionActions';

/**
 * What the parts shared by the features (engine/core, engine/ui, engine/account) and the features
 * themselves need to know of the feature registry, answered by the app shell: only engine/app
 * reads engine/features/index.ts (docs/architecture.md "Architecture"), so nothing below it imports every
 * feature. A shared part asks by route reference (engine/domain/routeRefs.ts), the way Backstage's
 * `useRouteRef` resolves a reference another plugin binds: "is this route served for the tenant?"
 * (a link to a route nobody serves is not shown), "may this session open it?", "which buttons do
 * the enabled features add to this subscription?". engine/app/featureRoutes.ts fills it in.
 */
export interface FeatureRoutes {
  /** Whether an enabled feature serves the route. */
  isServed(ref: RouteRef): boolean;
  /** Whether a session of this scope may open the route with these parameters (portal-core.md §4). */
  mayOpen(scope: SessionScope, ref: RouteRef, params?: Readonly<Record<string, string>>): boolean;
  /**
   * The enabled features' subscription-page actions, whose modules load only when the subscription
   * page asks (engine/features/types.ts `actions`); the same promise every time.
   */
  loadSubscriptionActions(): Promise<readonly SubscriptionAction[]>;
  /**
   * The subscription page's buttons (portal-core.md §2 "Subscription detail"): of the loaded
   * actions, those whose capability rule allows them, that the tenant does not hide and that the
   * session may follow, in order.
   */
  subscriptionActions(
    actions: readonly SubscriptionAction[],
    subscription: Subscription,
    ctx: CapabilityContext,
    scope: SessionScope,
  ): SubscriptionAction[];
}

const FeatureRoutesContext = createContext<FeatureRoutes | null>(null);

/** Set by the app shell (engine/app/main.tsx) and by the test harnesses, above every screen. */
export function FeatureRoutesProvider({ value, children }: { value: FeatureRoutes; children: ReactNode }) {
  return <FeatureRoutesContext.Provider value={value}>{children}</FeatureRoutesContext.Provider>;
}

export function useFeatureRoutes(): FeatureRoutes {
  const routes = useContext(FeatureRoutesContext);
  // A screen rendered without the shell would silently show no link and no button: say so instead.
  if (!routes) throw new Error('useFeatureRoutes outside FeatureRoutesProvider');
  return routes;
}

/** Whether an enabled feature serves the route (links to a route nobody serves are not shown). */
export function useRouteServed(ref: RouteRef): boolean {
  return useFeatureRoutes().isServed(ref);
}

/** Whether the signed-in session may open the route (a "logged in only" session may not open the account's). */
export function useMayOpenRoute(ref: RouteRef, params?: Readonly<Record<string, string>>): boolean {
  const routes = useFeatureRoutes();
  return routes.mayOpen(useSessionScope(), ref, params);
}

/**
 * The enabled features' subscription-page actions, loading: the subscription page asks as it
 * mounts, so they load beside its subscription's request, and reads them with React's `use`.
 */
export function useSubscriptionActionsLoad(): Promise<readonly SubscriptionAction[]> {
  return useFeatureRoutes().loadSubscriptionActions();
}

/** The subscription page's buttons for this subscription and the signed-in session, of the loaded actions. */
export function useSubscriptionActions(
  actions: readonly SubscriptionAction[],
  subscription: Subscription,
  ctx: CapabilityContext,
): SubscriptionAction[] {
  const routes = useFeatureRoutes();
  return routes.subscriptionActions(actions, subscription, ctx, useSessionScope());
}
