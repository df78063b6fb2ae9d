import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen, deferredActions } from '../types';

/**
 * Multi-user licences (account-flows.md §2 "Licences", §4, §5, §6, §8), switched by
 * `multi-user-licenses`: the licence objects of a multi-licence subscription with their licences
 * (add, activate / deactivate, delete, resend invitation) and the licence manager (replace,
 * remove); the anonymous accept page the invitation e-mail links to and the confirm page the
 * licence-manager appointment e-mail links to; and the subscription page's
 * button (portal-core.md §2, after opt-ins).
 */
export const multiUserLicensesFeature = defineFeature({
  id: 'multi-user-licenses',
  flags: ['multi-user-licenses'],
  routes: [
    {
      ref: ROUTES.subscriptionLicenses,
      access: 'login',
      screen: deferredScreen('multi-user-licenses', 'LicensesScreen'),
    },
    {
      ref: ROUTES.acceptLicense,
      access: 'anonymous',
      screen: deferredScreen('multi-user-licenses', 'AcceptLicenseScreen'),
    },
    {
      ref: ROUTES.confirmLicenseManager,
      access: 'anonymous',
      screen: deferredScreen('multi-user-licenses', 'ConfirmManagerScreen'),
    },
  ],
  actions: deferredActions('multi-user-licenses'),
});
