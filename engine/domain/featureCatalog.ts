/**
 * The feature registry's facts as data: what the tenant package (validation, the tenant
 * page) and the server (the QA preview) need to know of the features, without importing the registry
 * (engine/features/index.ts), which brings the screens, React and the whole engine with it.
 * `npm run types:generate` writes it from the registry into schemas/generated/feature-catalog.json;
 * `npm run types:check` (part of `npm test`) fails when the two drift apart. The registry stays the
 * only list of features (CONVENTIONS.md rule 2); the catalog is its generated shadow, like the
 * types generated from the schemas.
 *
 * The functions below are the registry's pure rules over these facts, so the shell, the build, the
 * validator and the preview agree on which features a tenant has on.
 */
import type { FeatureFlag } from './featureFlags';
import type { RouteAccess } from './routeAccess';

export interface FeatureCatalog {
  /** Base text tables every portal ships (the shell's, the account kit's), relative to engine/. */
  sharedTextTables: string[];
  /** Every feature, in registry order (the order of the shell's routes and the preview's lists). */
  features: CatalogFeature[];
}

export interface CatalogFeature {
  /** The feature's id: its folder under engine/features/ and the prefix of its text keys. */
  id: string;
  /** The tenant flags that switch it on, any one of them; none means always on. */
  flags: FeatureFlag[];
  /** The screens it serves: route id (the spec's route table), path relative to the portal base, access. */
  routes: Array<{ id: string; path: string; access: RouteAccess }>;
  /** Its sidebar entry: the route it links to, its label's text key, its position; `setting` when a tenant setting also decides. */
  menu?: { route: string; labelKey: string; order: number; setting?: true };
  /** Its base text table, relative to engine/. */
  textTable: string;
}

/** A feature is on for a tenant when it has no flags or any of its flags is in the tenant's features. */
export function isSwitchedOn(
  flags: readonly string[] | undefined,
  tenantFeatures: readonly string[],
): boolean {
  return !flags || flags.length === 0 || flags.some((flag) => tenantFeatures.includes(flag));
}

/** The catalog's features a tenant has on, in registry order. */
export function enabledCatalogFeatures(
  catalog: FeatureCatalog,
  tenantFeatures: readonly string[],
): CatalogFeature[] {
  return catalog.features.filter((feature) => isSwitchedOn(feature.flags, tenantFeatures));
}

/** The feature ids a flag switches on (the validator's hint for a flag, the preview's matrix). */
export function featuresSwitchedBy(catalog: FeatureCatalog, flag: string): string[] {
  return catalog.features
    .filter((feature) => feature.flags.includes(flag as FeatureFlag))
    .map((feature) => feature.id);
}

/**
 * The base text tables a tenant's portal ships, relative to engine/ (CONVENTIONS.md rule 7): the
 * shared ones and those of the enabled features. Without `tenantFeatures`: every table, the keys a
 * tenant may override.
 */
export function catalogTextTables(catalog: FeatureCatalog, tenantFeatures?: readonly string[]): string[] {
  const chosen = tenantFeatures ? enabledCatalogFeatures(catalog, tenantFeatures) : catalog.features;
  return [...catalog.sharedTextTables, ...chosen.map((feature) => feature.textTable)];
}
