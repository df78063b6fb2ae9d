/** The account's business partners (portal-core.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { businessPartnerRoutes } from './businessPartnerRoutes';
import { businessPartnerPersonalData } from './personalData';

export const businessPartnersManifest: FeatureManifest = {
  id: 'business-partners',
  routers: (deps) => [{ router: businessPartnerRoutes(deps) }],
  personalData: businessPartnerPersonalData,
};
