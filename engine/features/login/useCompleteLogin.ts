import { useSetAtom } from 'jotai';
import { useLocation, useNavigate } from 'react-router';
import { authStateAtom, type LoginResponse } from '../../core/authState';
import { signInDestinationAtom } from '../../core/signInDestination';
import { destinationAfterSignIn } from '../../domain/returnTo';

/**
 * Stores a successful login (§4 auth state) and goes where §2 "Login" says: the page the answer
 * names (a partner link's subscription, the OAuth state's path), else the login URL's
 * subscriptionId or returnTo, else orders (engine/domain/returnTo.ts, the rule the server checks
 * these paths with too). engine/app/main.tsx keeps the auth state in the tenant's session storage and
 * hands it to the tenant's other tabs.
 */
export function useCompleteLogin() {
  const setAuth = useSetAtom(authStateAtom);
  const setDestination = useSetAtom(signInDestinationAtom);
  const navigate = useNavigate();
  const location = useLocation();
  return (response: LoginResponse & { returnTo?: string }) => {
    const destination = destinationAfterSignIn(location.search, response.returnTo);
    // Before the auth state: the login route's guard sees both at once (engine/core/signInDestination.ts).
    setDestination({ accessToken: response.accessToken, path: destination });
    // A "logged in only" answer names its one subscription: the session's scope (§4, engine/domain/sessionScope.ts).
    setAuth({
      user: response.user,
      accessToken: response.accessToken,
      loginSource: response.loginSource,
      subscriptionId: response.subscriptionId,
      sessionHasTimedOut: false,
    });
    void navigate(destination, { replace: true });
  };
}
