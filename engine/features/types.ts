import type { ComponentType } from 'react';
import type { Subscription } from '../../schemas/generated/subscription';
import type { ButtonsConfigWithDefaults, LocalizedText } from '../../schemas/generated/tenant';
import type { CapabilityContext } from '../domain/capabilities';
import type { FeatureFlag } from '../domain/featureFlags';
import type { Query, RouteRef } from '../domain/routeRefs';
import type { PortalTenant } from '../domain/portalConfig';
import type { ApiClient } from '../core/apiClient';

/**
 * Route access levels of route-inventory.txt: login = needs a logged-in user; anonymous = open;
 * guest = only for users not logged in; loyalty = logged in and opted in to the loyalty programme
 * (else the opt-in landing, account-flows.md §2 "Loyalty programme"). account = login, and the
 * screen makes calls of the whole account, which a "logged in only" session (portal-core.md §4,
 * one subscription) may not make (engine/domain/sessionScope.ts): such a session sees a notice
 * instead, and no button leads there. The loyalty routes need the account too.
 */
export type RouteAccess = 'login' | 'account' | 'anonymous' | 'guest' | 'loyalty';

/** Whether a route's screen makes calls of the whole account (§4: not for a "logged in only" session). */
export const needsAccount = (access: RouteAccess): boolean => access === 'account' || access === 'loyalty';

/** A lazily loaded screen: each becomes its own chunk, so a tenant ships only what it enables. */
export type LazyScreen = () => Promise<{ default: ComponentType }>;

export interface FeatureRoute {
  /** The route it serves (engine/core/routeRefs.ts); its path comes from the reference. */
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

/** The names tenants use in `buttons.hiddenActions` to hide a subscription-page button (schemas/tenant.schema.json). */
export type HiddenActionName = ButtonsConfigWithDefaults['hiddenActions'][number];

/** Where a subscription-page action leads. */
export type ActionTarget =
  /** A portal route, built from its reference (never a hand-written path). */
  | {
      kind: 'route';
      route: RouteRef;
      params?: (s: Subscription) => Record<string, string>;
      query?: (s: Subscription, tenant: PortalTenant) => Query;
    }
  /** A page outside the portal, opened in a new tab; no URL means no button. */
  | {
      kind: 'external';
      url: (s: Subscription, ctx: CapabilityContext) => string | null;
      label?: (tenant: PortalTenant) => LocalizedText | undefined;
    }
  /** A dialog over the subscription page, loaded when opened. */
  | {
      kind: 'dialog';
      dialog: () => Promise<{ default: ComponentType<{ subscriptionId: string; onClose: () => void }> }>;
    };

/**
 * A button a feature adds to the subscription page (portal-core.md §2 "Subscription detail"): shown
 * when the feature is on for the tenant and `allowed` — a capability rule of
 * engine/domain/capabilities.ts (§6), which also checks the flags per publication — passes, unless
 * the tenant hides it (`buttons.hiddenActions`).
 */
export interface SubscriptionAction {
  /** Unique over all features. */
  id: string;
  allowed: (s: Subscription, ctx: CapabilityContext) => boolean;
  target: ActionTarget;
  /** Text key of the label (prefixed with the declaring feature's id). */
  labelKey: string;
  /** The tenant's name for hiding it (several actions may share one, e.g. both contact buttons). */
  hiddenBy: HiddenActionName;
  /** Position among the buttons, ascending (the order of §2's list). */
  order: number;
  /**
   * The heading it is shown under: keep (renew, upgrade — the first of these is the page's primary
   * action), manage (addresses, payment, holidays, …), help (complaints, contact), end (cancel).
   */
  group: ActionGroup;
}

/** The action groups of the subscription page, in the order they are shown. */
export const ACTION_GROUPS = ['keep', 'manage', 'help', 'end'] as const;
export type ActionGroup = (typeof ACTION_GROUPS)[number];

/**
 * One feature, declared in one place (CONVENTIONS.md, Backstage's createFrontendPlugin): its id
 * (= folder name = text-key prefix), the flags that switch it (any of them on switches it on; none
 * means always on), its routes and redirects, its menu entry and the actions it adds to the
 * subscription page. Keep these files free of React components: screens and dialogs are lazy
 * imports, everything else plain data, because the CLI (build, validate) and the server (preview)
 * read the registry under Node.
 */
export interface FeatureDefinition {
  id: string;
  flags?: readonly FeatureFlag[];
  routes: readonly FeatureRoute[];
  redirects?: readonly FeatureRedirect[];
  menu?: FeatureMenuItem;
  actions?: readonly SubscriptionAction[];
}

export function defineFeature(feature: FeatureDefinition): FeatureDefinition {
  return feature;
}
