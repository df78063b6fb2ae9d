/** Bulk renewal (account-flows.md §2), on the shared offer service. */
import type { FeatureManifest } from '../featureManifest';
import { bulkRenewalSlice } from './bulkRenewalRoutes';

export const renewalManifest: FeatureManifest = {
  id: 'renewal',
  routers: (deps, { offers }) => [{ slice: bulkRenewalSlice({ auth: deps.auth, offers }) }],
};
