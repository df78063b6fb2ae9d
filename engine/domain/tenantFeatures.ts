import type { FeatureFlag } from './featureFlags';

/** The part of a tenant that switches features (portal-core.md §6 "Tenant feature list"). */
export interface FeatureSwitches {
  features: readonly string[];
  publicationBlacklists?: Partial<Record<string, readonly string[]>>;
}

/**
 * Whether a feature flag is on for the tenant and, when a publication is given, not blacklisted
 * for that publication (portal-core.md §6: "all additionally gated by tenant feature flags and
 * per-publication blacklists"). The UI and the server both call this; never read flags raw.
 */
export function isFeatureOn(tenant: FeatureSwitches, flag: FeatureFlag, publication?: string): boolean {
  if (!tenant.features.includes(flag)) return false;
  if (publication === undefined) return true;
  const blacklist = tenant.publicationBlacklists?.[flag];
  return !blacklist || !blacklist.includes(publication);
}
