import type { Subscription } from '../../schemas/generated/subscription';
import type { CapabilityContext } from '../domain/capabilityRule';
import type { PortalTenant } from '../domain/portalConfig';
import type { RouteRef } from '../domain/routeRefs';
import { needsAccount, type FeatureDefinition, type FeatureMenuItem, type SubscriptionAction } from './types';
import { mayOpenScreen, type SessionScope } from '../domain/sessionScope';
import { isSwitchedOn } from '../domain/featureCatalog';
import { loginFeature } from './login';
import { ordersFeature } from './orders';
import { membershipsFeature } from './memberships';
import { subscriptionFeature } from './subscription';
import { linkSubscriptionFeature } from './link-subscription';
import { bundleGroupFeature } from './bundle-group';
import { businessPartnersFeature } from './business-partners';
import { faqFeature } from './faq';
import { contactFeature } from './contact';
import { issueCalendarFeature } from './issue-calendar';
import { externalPageFeature } from './external-page';
import { renewalFeature } from './renewal';
import { upgradeFeature } from './upgrade';
import { cancellationFeature } from './cancellation';
import { holidayServiceFeature } from './holiday-service';
import { issueComplaintFeature } from './issue-complaint';
import { addressChangeFeature } from './address-change';
import { paymentMethodChangeFeature } from './payment-method-change';
import { optInsFeature } from './opt-ins';
import { eCardFeature } from './e-card';
import { phaseUpgradeFeature } from './phase-upgrade';
import { emailWidgetFeature } from './email-widget';
import { optInWidgetFeature } from './opt-in-widget';
import { ssoProfilePageFeature } from './sso-profile-page';
import { loyaltyProgrammeFeature } from './loyalty-programme';
import { multiUserLicensesFeature } from './multi-user-licenses';

/**
 * The only list of features (CONVENTIONS.md rule 2). In the engine only the app shell reads it
 * (engine/app: routes, redirects, menu) and hands what the screens need down through
 * engine/core/featureRoutes.tsx (is a route served, may the session open it, the subscription
 * page's actions); engine/account and the features never import it. The build (cli/build) and the
 * catalog generator (scripts/featureCatalog.ts) read it too; the tenant package and the server read
 * its generated facts (engine/domain/featureCatalog.ts). It imports no React component (screens
 * are lazy), so the CLI loads it under Node.
 */
export const FEATURES: readonly FeatureDefinition[] = assertUnique([
  loginFeature,
  ordersFeature,
  membershipsFeature,
  subscriptionFeature,
  linkSubscriptionFeature,
  bundleGroupFeature,
  businessPartnersFeature,
  faqFeature,
  contactFeature,
  issueCalendarFeature,
  renewalFeature,
  upgradeFeature,
  cancellationFeature,
  phaseUpgradeFeature,
  holidayServiceFeature,
  issueComplaintFeature,
  addressChangeFeature,
  paymentMethodChangeFeature,
  optInsFeature,
  eCardFeature,
  emailWidgetFeature,
  optInWidgetFeature,
  ssoProfilePageFeature,
  loyaltyProgrammeFeature,
  multiUserLicensesFeature,
  externalPageFeature,
]);

/**
 * Duplicate feature ids or served routes fail loudly, naming them (Backstage); duplicate action ids
 * when the actions are loaded (loadSubscriptionActions), since each feature's are a lazy module.
 */
export function assertUnique(features: FeatureDefinition[]): FeatureDefinition[] {
  const seen = { feature: new Map<string, string>(), route: new Map<string, string>() };
  for (const feature of features) {
    claim(seen.feature, 'feature', feature.id, feature.id);
    for (const route of feature.routes) claim(seen.route, 'route', route.ref.id, feature.id);
    for (const redirect of feature.redirects ?? []) claim(seen.route, 'route', redirect.from.id, feature.id);
  }
  return features;
}

function claim(seen: Map<string, string>, kind: string, key: string, owner: string): void {
  const earlier = seen.get(key);
  if (earlier !== undefined)
    throw new Error(
      `Duplicate ${kind} "${key}" in engine/features/index.ts: declared by "${earlier}" and "${owner}"`,
    );
  seen.set(key, owner);
}

/** A feature is on for a tenant when it has no flags or any of its flags is in the tenant's features. */
export function isFeatureEnabled(
  feature: Pick<FeatureDefinition, 'flags'>,
  tenantFeatures: readonly string[],
): boolean {
  // The one rule, shared with the feature catalog the tenant package and the server read.
  return isSwitchedOn(feature.flags, tenantFeatures);
}

export function enabledFeatures(
  tenantFeatures: readonly string[],
  features: readonly FeatureDefinition[] = FEATURES,
): FeatureDefinition[] {
  return features.filter((feature) => isFeatureEnabled(feature, tenantFeatures));
}

/** The menu items of the enabled features, in order (portal-core.md §2 "Menu items"). */
export function menuItems(
  tenantFeatures: readonly string[],
  features: readonly FeatureDefinition[] = FEATURES,
): FeatureMenuItem[] {
  return enabledFeatures(tenantFeatures, features)
    .flatMap((feature) => (feature.menu ? [feature.menu] : []))
    .sort((a, b) => a.order - b.order);
}

/** Whether an enabled feature serves the route (links to a route nobody serves are not shown). */
export function isRouteServed(
  tenantFeatures: readonly string[],
  ref: RouteRef,
  features: readonly FeatureDefinition[] = FEATURES,
): boolean {
  return enabledFeatures(tenantFeatures, features).some((feature) =>
    feature.routes.some((route) => route.ref.id === ref.id),
  );
}

/**
 * The actions the enabled features add to the subscription page (portal-core.md §2 "Subscription
 * detail"), loaded from their modules (FeatureDefinition.actions), in order. Duplicate action ids
 * fail loudly, naming both features.
 */
export async function loadSubscriptionActions(
  tenantFeatures: readonly string[],
  features: readonly FeatureDefinition[] = FEATURES,
): Promise<SubscriptionAction[]> {
  const declared = await Promise.all(
    enabledFeatures(tenantFeatures, features).map(async (feature) => ({
      owner: feature.id,
      actions: feature.actions ? (await feature.actions()).actions : [],
    })),
  );
  const seen = new Map<string, string>();
  for (const { owner, actions } of declared)
    for (const action of actions) claim(seen, 'action', action.id, owner);
  return declared.flatMap(({ actions }) => actions).sort((a, b) => a.order - b.order);
}

/**
 * The subscription page's buttons (portal-core.md §2 "Subscription detail"): of the enabled
 * features' actions (loadSubscriptionActions), those whose capability rule (§6, flags and
 * publication blacklists included) allows them for this subscription and that the tenant does not
 * hide, in order.
 */
export function allowedActions(
  tenant: Pick<PortalTenant, 'buttons'>,
  actions: readonly SubscriptionAction[],
  subscription: Subscription,
  ctx: CapabilityContext,
): SubscriptionAction[] {
  const hidden = new Set<string>(tenant.buttons?.hiddenActions ?? []);
  return actions.filter((action) => !hidden.has(action.hiddenBy) && action.allowed(subscription, ctx));
}

/** loadSubscriptionActions and allowedActions in one: the buttons of this tenant's page for the subscription. */
export async function subscriptionActions(
  tenant: Pick<PortalTenant, 'features' | 'buttons'>,
  subscription: Subscription,
  ctx: CapabilityContext,
  features: readonly FeatureDefinition[] = FEATURES,
): Promise<SubscriptionAction[]> {
  return allowedActions(tenant, await loadSubscriptionActions(tenant.features, features), subscription, ctx);
}

/**
 * Whether a session of this scope may open the route with these parameters (portal-core.md §4
 * "logged in only"): a route of the whole account (access `account`, `loyalty`) needs the account's
 * session; a subscription's route (`:id`) needs a session that speaks for that subscription
 * (engine/domain/sessionScope.ts mayOpenScreen, the rule the server's 403 partial_login follows).
 */
export function mayOpenRoute(
  scope: SessionScope,
  ref: RouteRef,
  params: Readonly<Record<string, string>> = {},
  features: readonly FeatureDefinition[] = FEATURES,
): boolean {
  const route = features
    .flatMap((feature) => feature.routes)
    .find((candidate) => candidate.ref.id === ref.id);
  return mayOpenScreen(scope, {
    account: route ? needsAccount(route.access) : false,
    subscriptionId: ref.params.includes('id') ? params.id : undefined,
  });
}

/**
 * Whether the session may follow a subscription-page action: a link to a route it may open
 * (mayOpenRoute); dialogs and external links make no call of the account's.
 */
export function isActionOpenTo(
  scope: SessionScope,
  action: SubscriptionAction,
  subscription: Subscription,
  features: readonly FeatureDefinition[] = FEATURES,
): boolean {
  if (action.target.kind !== 'route') return true;
  return mayOpenRoute(
    scope,
    action.target.route,
    action.target.params?.(subscription) ?? { id: subscription.id },
    features,
  );
}

/** The feature ids a flag switches on (the validator's and the preview's view of a flag). */
export function featuresSwitchedBy(
  flag: string,
  features: readonly FeatureDefinition[] = FEATURES,
): string[] {
  return features.filter((feature) => feature.flags?.includes(flag as never)).map((feature) => feature.id);
}

/**
 * The base text tables a tenant's portal ships, relative to engine/ (CONVENTIONS.md rule 7): the
 * shell's, the account kit's (its screens parts are used by several features) and those of the
 * enabled features. Without `tenantFeatures`: every table, the keys a tenant may override.
 */
export function textTables(
  tenantFeatures?: readonly string[],
  features: readonly FeatureDefinition[] = FEATURES,
): string[] {
  const chosen = tenantFeatures ? enabledFeatures(tenantFeatures, features) : features;
  return [
    'core/texts.json',
    'account/texts.json',
    ...chosen.map((feature) => `features/${feature.id}/texts.json`),
  ];
}
