import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { Navigate, useLocation, useParams } from 'react-router';
import { authStateAtom, isLoggedIn, scopeOf } from '../core/authState';
import { mayOpenScreen } from '../domain/sessionScope';
import { usePortal } from '../core/PortalContext';
import type { OptInRequirement, RouteAccess } from '../features/types';
import { Loading } from '../ui/Loading';
import { href, ROUTES } from '../domain/routeRefs';
import { signInDestinationAtom } from '../core/signInDestination';
import { FEATURES } from '../features';
import { lazyArrived, startLoading } from './arrivedModules';

// The notice of a one-subscription session, for a few signed-in visitors only: loaded when shown,
// not with every page.
const PartialSessionNotice = lazy(() =>
  import('../core/PartialSessionNotice').then((module) => ({ default: module.PartialSessionNotice })),
);

// The embedded portal's sign-in notice, for embedded tenants alone: the boot asks for it where the
// tenant is embedded (engine/app/main.tsx), so it is there by the first paint of a visit without a
// session, and a signed-in visit does not wait for it.
const loadEmbeddedSignInNotice = () => import('../core/EmbeddedSignInNotice');
export const preloadEmbeddedSignInNotice = () => void loadEmbeddedSignInNotice().catch(() => undefined);
const EmbeddedSignInNotice = lazy(() =>
  loadEmbeddedSignInNotice().then((module) => ({ default: module.EmbeddedSignInNotice })),
);

// The ways into and out of the login (engine/app/signInRedirects.tsx, with the rules of
// engine/domain/returnTo.ts) are for visitors without a session and for a sign-in just made: they
// load then, not with every signed-in page. On the way in, the login screen's file is asked for
// beside them, so the login takes no longer than when the redirect was in the entry.
const signInRedirects = () => import('./signInRedirects');
const wayToLogin = () => {
  const loginScreen = FEATURES.flatMap((feature) => feature.routes).find(
    (route) => route.ref === ROUTES.login,
  );
  if (loginScreen) startLoading(loginScreen.screen);
  return signInRedirects();
};
/** Asks for the way to the login (and the login screen): a visitor without a session goes there. */
export const startWayToLogin = () => startLoading(wayToLogin);
const ToLogin = lazyArrived(wayToLogin, (module) => module.ToLogin);
const AwayFromLogin = lazyArrived(signInRedirects, (module) => module.AwayFromLogin);

/**
 * Route access of route-inventory.txt and portal-core.md §2 "Access rules":
 * - login routes send a visitor who is not logged in to /login with the query kept and the page's
 *   path as `returnTo` (engine/domain/returnTo.ts loginSearchFor; `p` and `lang` stay for the login);
 * - the query flag `p` sends anonymous pages to login too;
 * - /login (guest) sends logged-in users where a sign-in goes (§2 "Login": subscriptionId,
 *   returnTo, else /orders; engine/domain/returnTo.ts destinationAfterSignIn);
 * - a missing user goes to login unless the portal is embedded: then the page says how to sign in
 *   (engine/core/EmbeddedSignInNotice.tsx), with the session-expired text after a timeout;
 * - a "logged in only" session (portal-core.md §4, one subscription) gets a notice instead of a
 *   screen of the whole account (`account`) or of another subscription (`:id`), whose calls the
 *   server would refuse (engine/domain/sessionScope.ts mayOpenScreen).
 */
export function AccessGate({
  access,
  children,
}: {
  access: Exclude<RouteAccess, 'loyalty'>;
  children: ReactNode;
}) {
  const auth = useAtomValue(authStateAtom);
  const location = useLocation();
  const { id } = useParams();
  const { config } = usePortal();
  const loggedIn = isLoggedIn(auth);
  const query = new URLSearchParams(location.search);
  // A sign-in made on this screen names its own destination (engine/core/signInDestination.ts).
  const signedIn = useAtomValue(signInDestinationAtom);

  if (access === 'guest') {
    if (!loggedIn || query.has('p')) return <>{children}</>;
    return (
      <Suspense fallback={<Loading />}>
        <AwayFromLogin
          named={signedIn && signedIn.accessToken === auth.accessToken ? signedIn.path : undefined}
        />
      </Suspense>
    );
  }
  const needsLogin = access === 'login' || access === 'account' || query.has('p');
  if (needsLogin && !loggedIn) {
    // §2: "A missing user sends to login unless the portal is embedded": its host page signs
    // visitors in (a `p` token still goes through the login page); the page asked for says so.
    if (config.tenant.embedding.isEmbedded && !query.has('p'))
      return (
        <Suspense fallback={<Loading />}>
          <EmbeddedSignInNotice timedOut={auth.sessionHasTimedOut} />
        </Suspense>
      );
    return (
      <Suspense fallback={<Loading />}>
        <ToLogin />
      </Suspense>
    );
  }
  if (
    loggedIn &&
    (access === 'login' || access === 'account') &&
    !mayOpenScreen(scopeOf(auth), { account: access === 'account', subscriptionId: id })
  ) {
    return (
      <Suspense fallback={<Loading />}>
        <PartialSessionNotice />
      </Suspense>
    );
  }
  return <>{children}</>;
}

/**
 * The loyalty opt-in of route-inventory.txt ("loyalty = login plus loyalty opt-in, else the opt-in
 * landing"), inside a login gate: asks the route's feature whether the user has opted in and sends
 * those who have not to its landing, keeping the query and, in the history state, the page asked
 * for (the landing goes on there once the user has opted in).
 */
export function OptInGate({ requirement, children }: { requirement: OptInRequirement; children: ReactNode }) {
  const { api } = usePortal();
  const location = useLocation();
  const [optedIn, setOptedIn] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    requirement.isOptedIn(api).then(
      (answer) => live && setOptedIn(answer),
      () => live && setOptedIn(false),
    );
    return () => {
      live = false;
    };
  }, [api, requirement]);
  if (optedIn === null) return <Loading />;
  return optedIn ? (
    <>{children}</>
  ) : (
    <Navigate
      to={{ pathname: href(requirement.landing), search: location.search }}
      state={{ optInFor: `${location.pathname}${location.search}` }}
      replace
    />
  );
}
