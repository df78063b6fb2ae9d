/** Multi-user licences (account-flows.md §7). */
import type { FeatureManifest } from '../featureManifest';
import { createLicenses } from './licenseService';
import { licenseAcceptRoutes, licenseRoutes } from './licenseRoutes';
import { licensesPersonalData } from './personalData';

export const multiUserLicensesManifest: FeatureManifest = {
  id: 'multi-user-licenses',
  routers: (deps) => {
    // One licence service behind both routers (it keeps no state of its own).
    const licenses = createLicenses(deps);
    return [
      // The anonymous accept-licence URL, before the subscription routes that require a user under /subscriptions.
      { router: licenseAcceptRoutes({ licenses }), before: 'subscription' },
      // Switched per publication (a capability rule of engine/domain/capabilities.ts): each handler asks.
      { router: licenseRoutes({ auth: deps.auth, licenses }) },
    ];
  },
  personalData: licensesPersonalData,
  events: [
    'account.created',
    'license.accepted',
    'license.activated',
    'license.added',
    'license.deactivated',
    'license.deleted',
    'license.invitation_sent',
    'license_manager.appointment_sent',
    'license_manager.replaced',
  ],
};
