import type { FeatureSwitches } from './tenantFeatures';
import { isFeatureOn } from './tenantFeatures';

export const isLoyaltyOn = (tenant: FeatureSwitches) => isFeatureOn(tenant, 'loyalty-programme');

/** portal-core.md §2 "Menu items": /loyalty-programme when the feature is on and the tenant shows it in the navbar. */
export const showLoyaltyInMenu = (tenant: FeatureSwitches & { loyalty?: { showInNavbar?: boolean } }) =>
  isLoyaltyOn(tenant) && Boolean(tenant.loyalty?.showInNavbar);
