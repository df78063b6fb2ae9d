import { useMemo } from 'react';
import { atom, useAtomValue } from 'jotai';
import { FULL_LOGIN_SOURCES, sessionScope, type SessionScope } from '../domain/sessionScope';
import type { LoginResult } from '../../schemas/generated/login-result';

/** Login sources of portal-core.md §4, as the login answers carry them (schemas/api/login-result.schema.json). */
export type LoginSource = LoginResult['loginSource'];

export type AuthUser = LoginResult['user'];

export interface AuthState {
  user?: AuthUser;
  accessToken?: string;
  loginSource?: LoginSource;
  /** A "logged in only" session's one subscription, as the login answer names it (§4). */
  subscriptionId?: string;
  sessionHasTimedOut: boolean;
}

export interface LoginResponse {
  user: AuthUser;
  loginSource: LoginSource;
  accessToken: string;
  /** Only for "logged in only" sessions (§4, schemas/api/login-result.schema.json). */
  subscriptionId?: string;
}

export function isLoggedIn(state: AuthState): boolean {
  return Boolean(state.user && state.accessToken);
}

/** §4: fully logged in = a user exists and the source is a full one (engine/domain/sessionScope.ts). */
export function isFullyLoggedIn(state: AuthState): boolean {
  return (
    isLoggedIn(state) && state.loginSource !== undefined && FULL_LOGIN_SOURCES.includes(state.loginSource)
  );
}

/** What the session may call and open (§4 "logged in only"); a visitor without a session is ruled by the routes' access. */
export function scopeOf(state: AuthState): SessionScope {
  return sessionScope(state);
}

/** The session's scope, for screens that decide which calls to make and which controls to show. */
export function useSessionScope(): SessionScope {
  const auth = useAtomValue(authStateAtom);
  return useMemo(() => scopeOf(auth), [auth]);
}

/**
 * §4 keeps the auth state in session storage and restores it on reload; engine/core/tenantSession.ts
 * does so per tenant, for every login source, and shares it between the tenant's tabs.
 */
export const authStateAtom = atom<AuthState>({ sessionHasTimedOut: false });
