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

/** The ids a signed-in demo user has, to fill `:id`, `:bpNumber`, `:bundleNumber` and `:publication`. */
export interface DemoIds {
  id?: string;
  bpNumber?: string;
  bundleNumber?: string;
  publication?: string;
}

/** Every screen of the registry, in registry order; with `tenantFeatures` only those the tenant serves. */
export function previewScreens(tenantFeatures?: readonly string[]): PreviewScreen[] {
  const catalog = featureCatalog();
  const features = tenantFeatures ? enabledCatalogFeatures(catalog, tenantFeatures) : catalog.features;
  return features.flatMap((feature) =>
    feature.routes
      .filter((route) => route.id !== ROUTES.catchAll.id)
      .map((route) => ({ id: route.id, path: route.path, access: route.access, feature: feature.id })),
  );
}

/** Screens a visitor sees signed out: open routes without path parameters. */
export const isAnonymousScreen = (screen: Pick<PreviewScreen, 'access' | 'path'>) =>
  (screen.access === 'anonymous' || screen.access === 'guest') && !screen.path.includes(':');

/**
 * The in-portal path (no leading slash) with its parameters filled from the demo user's ids, or
 * undefined when the user has nothing the screen needs (no bundle, say). A licence id is not known
 * up front: `0` shows the screen's "not found" state, which is still worth a look.
 */
export function fillScreenPath(path: string, ids: DemoIds): string | undefined {
  let missing = false;
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value =
      (ids as Record<string, string | undefined>)[name] ?? (name === 'licenseId' ? '0' : undefined);
    if (value === undefined) missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? undefined : filled;
}

/** One subscription as GET /api/subscriptions answers it, the part the ids come from. */
export interface SubscriptionIds {
  id: string;
  orderStatus?: string;
  publication?: string;
  bundleNumber?: string | null;
  currentRoleBusinessPartner?: { bpNumber?: string } | null;
}

/**
 * The demo user's ids from their subscriptions: an active one (A, AK) first, as the accessibility
 * sweep picks them (tests/e2e/accessibility.spec.ts), so the screens show their usual state. The
 * same function runs in the /preview page (serialised into its script) and in the shots command.
 */
export function demoIdsFrom(list: readonly SubscriptionIds[]): DemoIds {
  const active = list.find((s) => s.orderStatus === 'A' || s.orderStatus === 'AK') ?? list[0];
  return {
    id: active?.id,
    bpNumber: active?.currentRoleBusinessPartner?.bpNumber ?? undefined,
    bundleNumber: list.find((s) => s.bundleNumber)?.bundleNumber ?? undefined,
    publication: active?.publication,
  };
}
