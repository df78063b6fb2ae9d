/** Address change (account-flows.md §2); dated changes are applied by the account manifest's job. */
import type { FeatureManifest } from '../featureManifest';
import { createAddressChange } from './addressChangeService';
import { addressChangeRoutes } from './addressChangeRoutes';
import { addressChangePersonalData } from './personalData';

export const addressChangeManifest: FeatureManifest = {
  id: 'address-change',
  routers: (deps) => [
    { router: addressChangeRoutes({ auth: deps.auth, addresses: createAddressChange(deps) }) },
  ],
  personalData: addressChangePersonalData,
  events: ['address.changed'],
};
