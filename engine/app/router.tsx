import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, useLocation, useParams, type RouteObject } from 'react-router';
import { FEATURES, isFeatureEnabled } from '../features';
import type { FeatureDefinition, FeatureRedirect, FeatureRoute, LazyScreen } from '../features/types';
import { AccessGate, OptInGate, startWayToLogin } from './access';
import { lazyArrived, startLoading } from './arrivedModules';
import { ROUTES, href, type RouteRef } from '../domain/routeRefs';
import { Shell } from './Shell';
import { Loading } from '../ui/Loading';

/**
 * The notices of a disabled feature's route and of an unknown path: few visits meet one, so they
 * load when shown, with the fallback contact they offer (one file, cli/build/engineBuild.ts).
 */
const FeatureDisabledNotice = lazy(() =>
  import('../core/FeatureDisabled').then((module) => ({ default: module.FeatureDisabled })),
);
const NotFoundNotice = lazy(() =>
  import('../core/NotFound').then((module) => ({ default: module.NotFound })),
);
const pageLoading = <Loading fillsPage pageHeading />;
const featureDisabled = (
  <Suspense fallback={pageLoading}>
    <FeatureDisabledNotice />
  </Suspense>
);

/**
 * One lazy component per screen loader, created once so React keeps its state across renders; it
 * renders at once where the screen's module has arrived (engine/app/arrivedModules.ts).
 */
const lazyScreens = new Map<LazyScreen, ComponentType>();
function lazyScreen(loader: LazyScreen): ComponentType {
  let component = lazyScreens.get(loader);
  if (!component) {
    component = lazyArrived(loader);
    lazyScreens.set(loader, component);
  }
  return component;
}

/**
 * Asks, before the first render, for what the first screen of a visit to the orders page (or `/`,
 * which sends there) or the login page shows, by AccessGate's rules (portal-core.md §2 "Access
 * rules"), as the page's inline script does for their files (cli/build/deferredScreens.ts): the
 * screen where the visitor may open it, else the way to the login. The module is there, or
 * on its way, when the route renders, so the screen mounts and asks for its data without the
 * loading notice's wait (engine/app/arrivedModules.ts). `hasSession` is what the tab keeps, before
 * the session is checked: a wrong guess costs a download, nothing else. Most visits start on these
 * two pages; a visit elsewhere loads its screen when the route renders, as before.
 */
export function startFirstScreen(
  path: string,
  search: string,
  hasSession: boolean,
  isEmbedded: boolean,
): void {
  const page = path.replace(/^\/|\/$/g, '').toLowerCase();
  const token = new URLSearchParams(search).has('p');
  const screen = (ref: RouteRef) =>
    FEATURES.flatMap((feature) => feature.routes).find((route) => route.ref === ref)!.screen;
  if (page === ROUTES.login.path) {
    if (!hasSession || token) startLoading(screen(ROUTES.login));
  } else if (page === '' || page === ROUTES.orders.path) {
    if (hasSession) startLoading(screen(ROUTES.orders));
    else if (!isEmbedded || token) startWayToLogin();
  }
}

function screenElement(route: FeatureRoute): ReactNode {
  const Screen = lazyScreen(route.screen);
  const screen = (
    <Suspense fallback={pageLoading}>
      <Screen />
    </Suspense>
  );
  if (route.access !== 'loyalty') return <AccessGate access={route.access}>{screen}</AccessGate>;
  // route-inventory.txt: "loyalty = login plus loyalty opt-in (else the opt-in landing)"; the
  // programme is the account's, not a "logged in only" session's (portal-core.md §4).
  return (
    <AccessGate access="account">
      <OptInGate requirement={route.optIn!}>{screen}</OptInGate>
    </AccessGate>
  );
}

/** route-inventory.txt "redirect:": the target with the same path parameters, the query kept and the redirect's own set. */
function Redirect({ redirect }: { redirect: FeatureRedirect }) {
  const location = useLocation();
  const params = useParams();
  const query = new URLSearchParams(location.search);
  for (const [key, value] of Object.entries(redirect.query ?? {})) query.set(key, value);
  const pathname = href(redirect.to, params as Record<string, string>);
  return <Navigate to={{ pathname, search: query.toString() ? `?${query}` : '' }} replace />;
}

function featureRoutes(feature: FeatureDefinition, tenantFeatures: readonly string[]): RouteObject[] {
  const enabled = isFeatureEnabled(feature, tenantFeatures);
  const routes: RouteObject[] = feature.routes
    .filter((route) => route.ref !== ROUTES.catchAll)
    .map((route) => ({
      path: route.ref.path,
      element: enabled ? screenElement(route) : featureDisabled,
    }));
  for (const redirect of feature.redirects ?? []) {
    const on = enabled && (!redirect.flag || tenantFeatures.includes(redirect.flag));
    routes.push({
      path: redirect.from.path,
      element: on ? <Redirect redirect={redirect} /> : featureDisabled,
    });
  }
  return routes;
}

/**
 * The catch-all of portal-core.md §2: an enabled feature's `*` route (external-page: a path equal
 * to an external navigation link's text embeds its URL, else 'Page not found'), otherwise NotFound.
 */
function catchAll(tenantFeatures: readonly string[]): RouteObject {
  const route = FEATURES.filter((feature) => isFeatureEnabled(feature, tenantFeatures))
    .flatMap((feature) => feature.routes)
    .find((candidate) => candidate.ref === ROUTES.catchAll);
  const Screen = route ? lazyScreen(route.screen) : NotFoundNotice;
  return {
    path: '*',
    element: (
      <Suspense fallback={pageLoading}>
        <Screen />
      </Suspense>
    ),
  };
}

/** `/` redirects to orders; the query (`p`, `lang`, …) travels along. */
function RedirectKeepingQuery({ to }: { to: string }) {
  const location = useLocation();
  return <Navigate to={{ pathname: to, search: location.search }} replace />;
}

/**
 * The route tree of route-inventory.txt assembled from the feature registry: an enabled feature's
 * routes show its screens behind their access rule and its redirects send on, a disabled feature's
 * routes show the feature-disabled notice, `/` redirects to /orders, anything else is the
 * catch-all. The menu is assembled from the same registry (engine/features/index.ts menuItems),
 * which the shell reads without going through this module.
 */
export function buildRoutes(tenantFeatures: readonly string[]): RouteObject[] {
  const children: RouteObject[] = [
    { index: true, element: <RedirectKeepingQuery to={href(ROUTES.orders)} /> },
    ...FEATURES.flatMap((feature) => featureRoutes(feature, tenantFeatures)),
    catchAll(tenantFeatures),
  ];
  return [{ path: '/', element: <Shell />, children }];
}
