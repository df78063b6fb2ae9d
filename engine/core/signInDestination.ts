import { atom } from 'jotai';

/**
 * The page a sign-in just made on the login screen leads to, with the session it opened
 * (engine/features/login/useCompleteLogin.ts sets it before the auth state). The login route's
 * guard sends a signed-in visitor away from /login; it renders with the new session before the
 * router has moved on (react-router moves in a transition, the auth state is not one), and without
 * this it would send the visitor to the login URL's page instead of the one the answer named (the
 * OAuth state's, a partner link's).
 */
export interface SignInDestination {
  accessToken: string;
  path: string;
}

export const signInDestinationAtom = atom<SignInDestination | undefined>(undefined);
