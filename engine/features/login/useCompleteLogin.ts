import { useSetAtom } from '../../core/atoms';
import { useLocation, useNavigate } from 'react-router';
import { authStateAtom, type LoginResponse } from '../../core/authState';
import { pathAfterLogin, type LoginRedirectState } from '../../core/access';
import { samePortalPathOrUndefined } from '../../domain/returnTo';

/**
 * Stores a successful login (§4 auth state) and goes where §2 "Login" says. engine/main.tsx keeps
 * the auth state in the tenant's session storage and hands it to the tenant's other tabs.
 */
export function useCompleteLogin() {
  const setAuth = useSetAtom(authStateAtom);
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as LoginRedirectState | null)?.from;
  return (response: LoginResponse & { returnTo?: string }) => {
    // A "logged in only" answer names its one subscription: the session's scope (§4, engine/domain/sessionScope.ts).
    setAuth({ user: response.user, accessToken: response.accessToken, loginSource: response.loginSource, subscriptionId: response.subscriptionId, sessionHasTimedOut: false });
    const search = new URLSearchParams(location.search);
    for (const key of ['confirm', 'reset', 'state', 'iss', 'session_state', 'forgot']) search.delete(key);
    // The server checks returnTo with the same rule; checked here too, as the screen navigates by it.
    const returnTo = samePortalPathOrUndefined(response.returnTo);
    void navigate(pathAfterLogin(`?${search}`, returnTo ?? from), { replace: true });
  };
}
