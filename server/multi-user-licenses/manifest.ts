/** Multi-user licences (account-flows.md §7). */
import type { ChangeRejection, FeatureManifest } from '../featureManifest';
import { followLicencesWithRoles, restoreLicenceManagers } from '../store/licenseStore';
import { createLicenses } from './licenseService';
import { licenseAcceptRoutes, licenseRoutes } from './licenseRoutes';
import { licensesPersonalData } from './personalData';
import { textOrNull } from '../store/rows';

/** A licence change rejected: its user's access follows the licence its overlay put back. */
const followLicence: ChangeRejection = (tx, { tenantId, data }) =>
  followLicencesWithRoles(tx, tenantId, textOrNull(data.subscriptionId));

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
    'license_manager.appointment_withdrawn',
    'license_manager.replaced',
  ],
  rejections: {
    'license.added': followLicence,
    'license.accepted': followLicence,
    'license.activated': followLicence,
    'license.deactivated': followLicence,
    'license.deleted': followLicence,
    'license_manager.replaced': (tx, { tenantId, data }) =>
      restoreLicenceManagers(
        tx,
        tenantId,
        textOrNull(data.subscriptionId),
        textOrNull(data.bpNumber),
        (Array.isArray(data.previousBpNumbers) ? data.previousBpNumbers : []).filter(
          (bp): bp is string => typeof bp === 'string',
        ),
      ),
  },
};
