import { atom } from './atoms';
import type { LoginResult } from '../../schemas/generated/login-result';

/** Login sources of portal-core.md §4, as the login answers carry them (schemas/api/login-result.schema.json). */
export type LoginSource = LoginResult['loginSource'];

export type AuthUser = LoginResult['user'];

export interface AuthState {
  user?: AuthUser;
  accessToken?: string;
  loginSource?: LoginSource;
  sessionHasTimedOut: boolean;
}

export interface LoginResponse {
  user: AuthUser;
  loginSource: LoginSource;
  accessToken: string;
}

/**
 * §4: fully logged in = a user exists and the source is email, token, sso, email-zip or kicker-auth.
 * oauth and dev are added: they are this project's names for the SSO and development sign-ins, and
 * a user who signed in through them has a full account (the spec lists them as persisted sources).
 */
const FULL_LOGIN_SOURCES: readonly LoginSource[] = ['email', 'token', 'sso', 'email-zip', 'kicker-auth', 'oauth', 'dev'];

export function isLoggedIn(state: AuthState): boolean {
  return Boolean(state.user && state.accessToken);
}

export function isFullyLoggedIn(state: AuthState): boolean {
  return isLoggedIn(state) && state.loginSource !== undefined && FULL_LOGIN_SOURCES.includes(state.loginSource);
}

/**
 * §4 keeps the auth state in session storage and restores it on reload; engine/core/tenantSession.ts
 * does so per tenant, for every login source, and shares it between the tenant's tabs.
 */
export const authStateAtom = atom<AuthState>({ sessionHasTimedOut: false });
