/**
 * Sign-in decisions (portal-core.md §2 "Login", §4 auth state, §5 login and password rules, §7 login
 * calls). Tokens and sessions live in the database, hashed, so any number of server instances share
 * them; no answer tells whether an e-mail address has an account.
 *
 * One module per command family under ./commands, over the shared kit of ./authKit.ts; this module
 * only binds them to one kit, so the routes keep one `auth` object to call.
 */
import type { RequestOrigin } from '../http/requestOrigin';
import type { ServerTenant } from '../tenancy/tenantContext';
import { createAuthKit, type AuthServiceDeps } from './authKit';
import {
  requestBulkRenewalLink,
  requestEmailZipLink,
  requestMagicLink,
  sendPartnerSignInLink,
} from './commands/signInLinks';
import { loginWithToken } from './commands/linkLogin';
import { loginWithPassword } from './commands/passwordLogin';
import { confirmRegistration, register, type Registration } from './commands/registration';
import { forgotPassword, resetPassword } from './commands/passwordReset';
import { authenticate, logout } from './commands/sessionCheck';

export { MAGIC_LINK_MINUTES, MAGIC_LINK_PURPOSE } from './signInMailJobs';
export type { AuthServiceDeps, LoginSource } from './authKit';
export type { PartnerSignInPayload } from './commands/signInLinks';
export type { Registration } from './commands/registration';
export type { AuthenticatedUser } from './commands/sessionCheck';
/** schemas/api/login-result.schema.json: every answer that opens a session. */
export type { LoginResult } from '../../schemas/generated/login-result';
/** A login that may name a same-portal page to go to next (engine/domain/returnTo.ts). */
export type { LoginResult as LinkLoginResult } from '../../schemas/generated/login-result';

type Input<F extends (...args: never[]) => unknown> = Parameters<F>[2];

export function createAuthService(deps: AuthServiceDeps) {
  const kit = createAuthKit(deps);
  return {
    startSession: kit.startSession,
    /**
     * A mailed link's or a cookie's secret spent by a client: only a refused one counts against the
     * client's budget (server/auth/rateLimit.ts countingFailuresOfSecret), for the calls outside the
     * sign-in commands that take such a secret (an opt-in link, the kicker SSO id).
     */
    spendingToken: kit.spendingToken,
    requestMagicLink: (tenant: ServerTenant, input: Input<typeof requestMagicLink>, origin: RequestOrigin) =>
      requestMagicLink(kit, tenant, input, origin),
    requestEmailZipLink: (
      tenant: ServerTenant,
      input: Input<typeof requestEmailZipLink>,
      origin: RequestOrigin,
    ) => requestEmailZipLink(kit, tenant, input, origin),
    requestBulkRenewalLink: (
      tenant: ServerTenant,
      input: Input<typeof requestBulkRenewalLink>,
      origin: RequestOrigin,
    ) => requestBulkRenewalLink(kit, tenant, input, origin),
    sendPartnerSignInLink: (
      tenant: ServerTenant,
      input: Input<typeof sendPartnerSignInLink>,
      origin: RequestOrigin,
    ) => sendPartnerSignInLink(kit, tenant, input, origin),
    loginWithToken: (tenant: ServerTenant, token: string, client?: string) =>
      loginWithToken(kit, tenant, token, client),
    loginWithPassword: (
      tenant: ServerTenant,
      input: Input<typeof loginWithPassword>,
      origin: RequestOrigin,
      loginSource?: 'email' | 'kicker-auth',
    ) => loginWithPassword(kit, tenant, input, origin, loginSource),
    register: (tenant: ServerTenant, input: Registration, origin: RequestOrigin) =>
      register(kit, tenant, input, origin),
    confirmRegistration: (tenant: ServerTenant, input: { token: string; password: string }, client: string) =>
      confirmRegistration(kit, tenant, input, client),
    forgotPassword: (tenant: ServerTenant, input: Input<typeof forgotPassword>, origin: RequestOrigin) =>
      forgotPassword(kit, tenant, input, origin),
    resetPassword: (tenant: ServerTenant, input: Input<typeof resetPassword>, client: string) =>
      resetPassword(kit, tenant, input, client),
    authenticate: (tenant: ServerTenant, accessToken: string | undefined) =>
      authenticate(kit, tenant, accessToken),
    logout: (tenant: ServerTenant, sessionId: string) => logout(kit, tenant, sessionId),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
