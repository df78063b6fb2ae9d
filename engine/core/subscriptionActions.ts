import type { ComponentType } from 'react';
import type { Subscription } from '../../schemas/generated/subscription';
import type { ButtonsConfigWithDefaults, LocalizedText } from '../../schemas/generated/tenant';
import type { CapabilityContext } from '../domain/capabilities';
import type { PortalTenant } from '../domain/portalConfig';
import type { Query, RouteRef } from '../domain/routeRefs';

/*
 * The buttons a feature adds to the subscription page (portal-core.md §2 "Subscription detail").
 * The features declare them (engine/features/types.ts FeatureDefinition.actions), the app shell
 * lists the enabled ones and the subscription page reads that list through
 * engine/core/featureRoutes.tsx: the type sits here, below all three.
 */

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
      dialog: () => Promise<{ default: ComponentType<ActionDialogProps> }>;
    };

/** What a subscription-page dialog gets: `onChanged` takes the subscription a change answered with. */
export interface ActionDialogProps {
  subscriptionId: string;
  onClose: () => void;
  onChanged: (subscription: Subscription) => void;
}

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

/**
 * A feature's subscription-page actions, a module of their own (`features/<id>/actions.ts`) that
 * only the subscription page loads: their capability rules (engine/domain/capabilities.ts) and
 * declarations stay out of the files every other page loads, the login page's above all.
 */
export type LazyActions = () => Promise<{ actions: readonly SubscriptionAction[] }>;

/** The action groups of the subscription page, in the order they are shown. */
export const ACTION_GROUPS = ['keep', 'manage', 'help', 'end'] as const;
export type ActionGroup = (typeof ACTION_GROUPS)[number];
