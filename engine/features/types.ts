import type { ComponentType } from 'react';
import type { FeatureFlag } from '../domain/featureFlags';
import type { RouteRef } from '../domain/routeRefs';
import type { RouteAccess } from '../domain/routeAccess';
import type { PortalTenant } from '../domain/portalConfig';
import type { ApiClient } from '../core/apiClient';
import type { LazyActions } from '../core/subscriptionActions';
import type { DEFERRED } from './deferred';

// The subscription page's actions are declared by the features and listed by the shell; the
// subscription feature's page reads them through engine/core/featureRoutes.tsx, so their types
// live in engine/core, below both.
export {
  ACTION_GROUPS,
  type ActionDialogProps,
  type ActionGroup,
  type ActionTarget,
  type HiddenActionName,
  type LazyActions,
  type SubscriptionAction,
} from '../core/subscriptionActions';

/** Route access levels (route-inventory.txt): declared in engine/domain, where the server reads them too. */
export { needsAccount, type RouteAccess } from '../domain/routeAccess';

/** A lazily loaded screen: each becomes its own chunk, so a tenant ships only what it enables. */
export type LazyScreen = () => Promise<{ default: ComponentType }>;

export interface FeatureRoute {
  /** The route it serves (engine/domain/routeRefs.ts); its path comes from the reference. */
  ref: RouteRef;
  access: RouteAccess;
  screen: LazyScreen;
  /** With `loyalty` access: how to tell an opted-in user, and where the others go (required there). */
  optIn?: OptInRequirement;
}

/** The loyalty opt-in a `loyalty` route needs (route-inventory.txt: "login plus loyalty opt-in (else the opt-in landing)"). */
export interface OptInRequirement {
  isOptedIn: (api: ApiClient) => Promise<boolean>;
  landing: RouteRef;
}

/**
 * A route that only sends the visitor on, keeping the rest of the query (route-inventory.txt
 * "redirect:"), e.g. /subscriptions/{id}/holiday-break → holiday-service?service=Break. The target
 * takes the same path parameters as the source.
 */
export interface FeatureRedirect {
  from: RouteRef;
  to: RouteRef;
  /** Query parameters the redirect sets on the target. */
  query?: Record<string, string>;
  /** The flag that must be on for this redirect (holiday-break only with holiday-break, …); else the feature's. */
  flag?: FeatureFlag;
}

export interface FeatureMenuItem {
  /** The route the item links to; must be one of the feature's own routes (Backstage NavItem → route ref). */
  route: RouteRef;
  /** Text key of the label (prefixed with the feature id). */
  labelKey: string;
  /** Position in the sidebar, ascending. */
  order: number;
  /** A tenant setting the item also needs besides the feature's flag (loyalty: `loyalty.showInNavbar`, portal-core.md §2). */
  when?: (tenant: PortalTenant) => boolean;
}

/**
 * One feature, declared in one place (CONVENTIONS.md, Backstage's createFrontendPlugin): its id
 * (= folder name = text-key prefix), the flags that switch it (any of them on switches it on; none
 * means always on), its routes and redirects, its menu entry and the actions it adds to the
 * subscription page. Keep these files free of React components: screens and dialogs are lazy
 * imports, everything else plain data, because the CLI (build, validate) and the server (preview)
 * read the registry under Node. The actions are a lazy import too (`actions.ts` beside it), so
 * the entry every page loads holds no capability rule. A screen a visit starts on (the login,
 * the orders, a subscription's page) is `() => import('./Screen')`; every other screen and the
 * actions go through the feature's `deferred.ts` (`deferredScreen`, `deferredActions`).
 */
export interface FeatureDefinition {
  id: string;
  flags?: readonly FeatureFlag[];
  routes: readonly FeatureRoute[];
  redirects?: readonly FeatureRedirect[];
  menu?: FeatureMenuItem;
  /** Its subscription-page buttons: `deferredActions('<id>')` (its `actions.ts`), read by the subscription page only. */
  actions?: LazyActions;
}

export function defineFeature(feature: FeatureDefinition): FeatureDefinition {
  return feature;
}

type Deferred = typeof DEFERRED;
type WithActions = {
  [F in keyof Deferred]: Deferred[F] extends { actions: LazyActions } ? F : never;
}[keyof Deferred];

/** The deferred table's file, one import for every screen and action in it (engine/features/deferred.ts). */
const deferredTable = (): Promise<Deferred> => import('./deferred').then((module) => module.DEFERRED);

const DEFERRED_MARK = Symbol('deferred screen');

/**
 * A screen of the feature's `deferred.ts`: its file loads after the deferred table's. A visit that
 * starts on it has the table preloaded by the page (cli/build/deferredScreens.ts), so it waits for
 * no request more; on the way there from another screen the table is mostly loaded already.
 */
export function deferredScreen<F extends keyof Deferred>(
  feature: F,
  screen: keyof (Deferred[F] extends { screens: infer S } ? S : never),
): LazyScreen {
  const load: LazyScreen = () =>
    deferredTable().then((table) =>
      (table[feature] as { screens: Record<string, LazyScreen> }).screens[screen as string](),
    );
  return Object.assign(load, { [DEFERRED_MARK]: feature });
}

/**
 * The feature whose `deferred.ts` lists the screen (a feature lists only its own), or undefined for
 * a screen the entry loads itself; the build preloads the table for the paths of the others.
 */
export function deferredScreenOwner(screen: LazyScreen): string | undefined {
  return (screen as { [DEFERRED_MARK]?: string })[DEFERRED_MARK];
}

/** The feature's subscription-page actions, from its `deferred.ts`. */
export function deferredActions(feature: WithActions): LazyActions {
  return () => deferredTable().then((table) => (table[feature] as { actions: LazyActions }).actions());
}
