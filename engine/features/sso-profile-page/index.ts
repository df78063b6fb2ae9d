import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/**
 * The SSO profile page (account-flows.md §2 "SSO profile", §4 "SSO delete", §5, §8), switched by
 * `sso-profile-page`: change the password, change the sign-in e-mail (confirmed by a link mailed to
 * the new address; the old one is told, with a link that takes the account back), delete the
 * account; the tenant's `ssoProfilePage` switches hide the last two (and the server refuses them). Its menu item is "account details" (portal-core.md §2).
 */
export const ssoProfilePageFeature = defineFeature({
  id: 'sso-profile-page',
  flags: ['sso-profile-page'],
  routes: [
    {
      ref: ROUTES.ssoProfile,
      access: 'account',
      screen: deferredScreen('sso-profile-page', 'SsoProfileScreen'),
    },
    // The old address takes the account back after a change it did not make: no session needed.
    {
      ref: ROUTES.ssoProfileUndo,
      access: 'anonymous',
      screen: deferredScreen('sso-profile-page', 'SsoUndoScreen'),
    },
  ],
  menu: { route: ROUTES.ssoProfile, labelKey: 'sso-profile-page.menuTitle', order: 100 },
});
