/**
 * The screens QA looks at (docs/operators.md "The preview page"): every route a feature of the
 * registry serves (CONVENTIONS.md rule 2), read from the feature catalog
 * (schemas/generated/feature-catalog.json, the registry's facts the server may read), redirects and
 * the catch-all aside since they show other screens. The /preview page's route picker and
 * `portal preview --shots` both read this list, so a new feature's screens join both without
 * touching them. Pure: no database, no DOM.
 */
import { enabledCatalogFeatures } from '../../engine/domain/featureCatalog';
import type { RouteAccess } from '../../engine/domain/routeAccess';
import { ROUTES } from '../../engine/domain/routeRefs';
import { can, type Capability } from '../../engine/domain/capabilities';
import type { CapabilityContext } from '../../engine/domain/capabilityRule';
import type { Subscription } from '../../schemas/generated/subscription';
import { featureCatalog } from '../../tenant/featureCatalog';

export interface PreviewScreen {
  /** The route's id in the spec's route table (engine/domain/routeRefs.ts); also the shot's file name. */
  id: string;
  /** Path relative to the portal base, react-router syntax (`subscriptions/:id`). */
  path: string;
  access: RouteAccess;
  /** The feature (folder under engine/features/) that serves it. */
  feature: string;
}

/** The ids a signed-in demo user has, to fill `:id`, `:bpNumber`, `:bundleNumber`, `:publication`, `:rewardId`. */
export interface DemoIds {
  id?: string;
  bpNumber?: string;
  bundleNumber?: string;
  publication?: string;
  rewardId?: string;
  /**
   * Per screen (route id): the subscription, and its partner, that the screen's own rule allows
   * (the licences of a multi-licence, the renewal of a renewable one), where the first active
   * subscription would show only the screen's refusal.
   */
  screens?: Record<string, { id: string; bpNumber?: string }>;
}

/** What of a tenant decides which screens it serves: its features, and the settings of SCREEN_SETTINGS. */
export interface ScreenTenant {
  features: readonly string[];
  renewal?: { bulkRenewal?: boolean };
}

/**
 * Screens a feature serves only where a setting of the tenant switches them on, and otherwise
 * answer with the feature-disabled notice (as engine/features/renewal/BulkRenewalScreen.tsx does):
 * the preview leaves them out for such a tenant, as it does a disabled feature's.
 */
const SCREEN_SETTINGS: Readonly<Record<string, (tenant: ScreenTenant) => boolean>> = {
  [ROUTES.bulkRenewal.id]: (tenant) => tenant.renewal?.bulkRenewal === true,
};

/** Every screen of the registry, in registry order; with `tenant` only those the tenant serves. */
export function previewScreens(tenant?: ScreenTenant): PreviewScreen[] {
  const catalog = featureCatalog();
  const features = tenant ? enabledCatalogFeatures(catalog, tenant.features) : catalog.features;
  return features.flatMap((feature) =>
    feature.routes
      .filter((route) => route.id !== ROUTES.catchAll.id)
      .filter((route) => !tenant || (SCREEN_SETTINGS[route.id]?.(tenant) ?? true))
      .map((route) => ({ id: route.id, path: route.path, access: route.access, feature: feature.id })),
  );
}

/** Screens a visitor sees signed out: open routes without path parameters. */
export const isAnonymousScreen = (screen: Pick<PreviewScreen, 'access' | 'path'>) =>
  (screen.access === 'anonymous' || screen.access === 'guest') && !screen.path.includes(':');

/**
 * Path parameters only a mailed link brings, with its token in the query (a licence invitation, a
 * licence manager's appointment): the preview makes no invitation, so these screens are skipped.
 */
export const MAILED_LINK_PARAMS: readonly string[] = ['licenseId', 'appointmentId'];

/** The ids a screen is filled with: its own subscription's (DemoIds.screens) over the user's. */
function idsOfScreen(ids: DemoIds, screenId: string | undefined): Record<string, string | undefined> {
  const { screens, ...common } = ids;
  return { ...common, ...(screenId ? screens?.[screenId] : undefined) };
}

/**
 * The in-portal path (no leading slash) with its parameters filled from the demo user's ids (the
 * screen's own subscription first, `screenId` being its route id), or undefined when the user has
 * nothing the screen needs (no bundle, say).
 */
export function fillScreenPath(path: string, ids: DemoIds, screenId?: string): string | undefined {
  const own = idsOfScreen(ids, screenId);
  let missing = false;
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = own[name];
    if (value === undefined) missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? undefined : filled;
}

/** Why a screen cannot be shown for a user, for the page's notice and the shots' list. */
export function missingReason(
  path: string,
  ids: DemoIds,
  screenId: string | undefined,
  user: string,
): string {
  const names = [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
  if (names.some((name) => MAILED_LINK_PARAMS.includes(name)))
    return 'this screen opens from a mailed invitation link, which the preview does not make';
  const own = idsOfScreen(ids, screenId);
  return `${user} has no ${names.filter((name) => own[name] === undefined).join(', ')} for this screen`;
}

/**
 * The screens of a subscription and the capability rule (engine/domain/capabilities.ts) their
 * subscription page's button goes by: the preview fills their `:id` with a subscription the rule
 * allows. A screen not named here takes the first active subscription.
 */
const SCREEN_CAPABILITIES: Readonly<Record<string, Capability>> = {
  [ROUTES.subscriptionAddresses.id]: 'addressChange',
  [ROUTES.subscriptionBusinessPartner.id]: 'addressChange',
  [ROUTES.holidayService.id]: 'holidayService',
  [ROUTES.holidayRedirect.id]: 'holidayService',
  [ROUTES.holidayBreak.id]: 'holidayService',
  [ROUTES.holidayDownload.id]: 'holidayService',
  [ROUTES.subscriptionPaymentDetails.id]: 'paymentMethodChange',
  [ROUTES.subscriptionComplaint.id]: 'issueComplaint',
  [ROUTES.subscriptionLicenses.id]: 'multiUserLicenses',
  [ROUTES.subscriptionCancellation.id]: 'cancellation',
  [ROUTES.subscriptionRenewal.id]: 'renewal',
  [ROUTES.subscriptionUpgrade.id]: 'upgrade',
  [ROUTES.subscriptionOptIns.id]: 'optIns',
};

/**
 * One subscription as GET /api/subscriptions answers it (the capability rules read the whole of
 * it), of which the ids come from these fields.
 */
export interface SubscriptionIds {
  id: string;
  orderStatus?: string;
  publication?: string;
  bundleNumber?: string | null;
  currentRoleBusinessPartner?: { bpNumber?: string } | null;
}

const isActive = (s: SubscriptionIds) => s.orderStatus === 'A' || s.orderStatus === 'AK';

/**
 * The demo user's ids from their subscriptions: an active one (A, AK) first, as the accessibility
 * sweep picks them (tests/e2e/accessibility.spec.ts), so the screens show their usual state; with
 * the tenant's context, each subscription screen's own subscription (SCREEN_CAPABILITIES). The
 * page's script and the shots command fill paths from the answer (fillScreenPath).
 */
export function demoIdsFrom(
  list: readonly SubscriptionIds[],
  ctx?: CapabilityContext,
  more: { rewardId?: string } = {},
): DemoIds {
  const ordered = [...list.filter(isActive), ...list.filter((s) => !isActive(s))];
  const active = ordered[0];
  const ids: DemoIds = {
    id: active?.id,
    bpNumber: active?.currentRoleBusinessPartner?.bpNumber ?? undefined,
    bundleNumber: list.find((s) => s.bundleNumber)?.bundleNumber ?? undefined,
    publication: active?.publication,
    ...(more.rewardId ? { rewardId: more.rewardId } : {}),
  };
  if (!ctx) return ids;
  const screens: NonNullable<DemoIds['screens']> = {};
  for (const [screen, capability] of Object.entries(SCREEN_CAPABILITIES)) {
    const fitting = ordered.find((s) => can(capability, s as unknown as Subscription, ctx));
    if (fitting && fitting.id !== active?.id)
      screens[screen] = {
        id: fitting.id,
        bpNumber: fitting.currentRoleBusinessPartner?.bpNumber ?? undefined,
      };
  }
  return Object.keys(screens).length ? { ...ids, screens } : ids;
}
