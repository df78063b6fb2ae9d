/** Sign-in (portal-core.md §2 "Login"): not a switchable feature of its own; the engine's side is engine/features/login/. */
import type { FeatureManifest } from '../featureManifest';
import { authRoutes } from './authRoutes';
import { oauthApiRoutes } from './oauthRoutes';
import { kickerAuthSlice } from './kickerAuth';
import { partialLoginRoutes } from './partialLogin';
import { SIGN_IN_MAIL_JOBS } from './signInMailJobs';
import { authPersonalData } from './personalData';

export const authManifest: FeatureManifest = {
  id: 'auth',
  // Sign-in routes are no feature's: they ask in their handlers (the order-number login's flow is
  // the flag the request names); kicker-auth is a sign-in method switched by its own flag.
  routers: (deps) => [
    { router: authRoutes(deps) },
    { router: oauthApiRoutes(deps.oauth) },
    { slice: kickerAuthSlice(deps) },
    { router: partialLoginRoutes(deps) },
  ],
  mailJobs: SIGN_IN_MAIL_JOBS,
  personalData: authPersonalData,
  events: ['account.created', 'subscription.linked', 'account.password_reset'],
};
