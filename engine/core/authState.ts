import { atom } from 'jotai';
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

/** §4: "the response is also saved in session storage under an auth-state key and restored on reload". */
export const AUTH_STATE_STORAGE_KEY = 'portal.authState';
const PERSISTED_SOURCES: readonly LoginSource[] = ['token', 'oauth', 'dev', 'kicker-auth'];

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

const TIMED_OUT_STORAGE_KEY = 'portal.sessionTimedOut';

export function restoreAuthState(): AuthState {
  try {
    const raw = sessionStorage.getItem(AUTH_STATE_STORAGE_KEY);
    if (raw) {
      const saved = JSON.parse(raw) as LoginResponse;
      if (saved.user && saved.accessToken) return { ...saved, sessionHasTimedOut: false };
    }
    // Set by a log-out after a timeout, read once by the login page that follows it.
    const timedOut = sessionStorage.getItem(TIMED_OUT_STORAGE_KEY) === '1';
    sessionStorage.removeItem(TIMED_OUT_STORAGE_KEY);
    return { sessionHasTimedOut: timedOut };
  } catch {
    // §8: session storage failures are ignored.
  }
  return { sessionHasTimedOut: false };
}

export function markSessionTimedOut(): void {
  try {
    sessionStorage.setItem(TIMED_OUT_STORAGE_KEY, '1');
  } catch {
    // §8: session storage failures are ignored.
  }
}

export function persistLogin(response: LoginResponse): void {
  if (!PERSISTED_SOURCES.includes(response.loginSource)) return;
  try {
    sessionStorage.setItem(AUTH_STATE_STORAGE_KEY, JSON.stringify(response));
  } catch {
    // §8: session storage failures are ignored.
  }
}

export function clearPersistedLogin(): void {
  try {
    sessionStorage.removeItem(AUTH_STATE_STORAGE_KEY);
  } catch {
    // ignored, see above
  }
}

export const authStateAtom = atom<AuthState>({ sessionHasTimedOut: false });
