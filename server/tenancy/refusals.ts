/**
 * The one answer for a call of a feature the tenant has switched off (portal-core.md §6 feature
 * flags with their per-publication blacklists): 403 `feature_disabled`, on every route alike.
 */
import type { FeatureFlag } from '../../engine/domain/featureFlags';
import { isFeatureOn, type FeatureSwitches } from '../../engine/domain/tenantFeatures';
import { HttpError } from '../http/errors';

export function requireFeature(tenant: FeatureSwitches, flag: FeatureFlag, publication?: string): void {
  if (!isFeatureOn(tenant, flag, publication)) throw new HttpError(403, 'feature_disabled', `This portal does not offer ${flag}.`);
}
