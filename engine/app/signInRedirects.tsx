import { Navigate, useLocation } from 'react-router';
import { destinationAfterSignIn, loginSearchFor } from '../domain/returnTo';

/**
 * §2 "Access rules": a visitor without a session goes to /login with the query kept and this page
 * as `returnTo` (engine/domain/returnTo.ts loginSearchFor; `p` and `lang` stay for the login).
 */
export function ToLogin() {
  const location = useLocation();
  return (
    <Navigate
      to={{ pathname: '/login', search: loginSearchFor(location.pathname, location.search) }}
      replace
    />
  );
}

/**
 * §2 "Login": a signed-in visitor on /login goes where a sign-in goes: the page the sign-in just
 * made on the login screen named (engine/core/signInDestination.ts), else the one the login URL
 * asks for (destinationAfterSignIn).
 */
export function AwayFromLogin({ named }: { named: string | undefined }) {
  const location = useLocation();
  return <Navigate to={named ?? destinationAfterSignIn(location.search)} replace />;
}
