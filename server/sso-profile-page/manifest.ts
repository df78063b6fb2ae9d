/** The SSO profile page: profile, e-mail and password changes, account deletion (account-flows.md §2, §4). */
import type { FeatureManifest } from '../featureManifest';
import { createSsoProfileService } from './ssoProfileService';
import { ssoProfileSlice } from './ssoProfileRoutes';

export const ssoProfilePageManifest: FeatureManifest = {
  id: 'sso-profile-page',
  routers: (deps) => [
    { slice: ssoProfileSlice({ auth: deps.auth, ssoProfile: createSsoProfileService(deps) }) },
  ],
  events: [
    'sso_profile.email_change_requested',
    'sso_profile.email_changed',
    'sso_profile.password_changed',
    'sso_profile.deleted',
  ],
};
