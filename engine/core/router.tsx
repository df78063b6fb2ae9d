import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, useLocation, type RouteObject } from 'react-router';
import { FEATURES, isFeatureEnabled } from '../features';
import type { FeatureDefinition, FeatureRoute } from '../features/types';
import { AccessGate } from './access';
import { FeatureDisabled } from './FeatureDisabled';
import { NotFound } from './NotFound';
import { Shell } from './Shell';
import { Loading } from '../ui/Loading';

/** One lazy component per screen loader, created once so React keeps its state across renders. */
const lazyScreens = new Map<FeatureRoute['screen'], ComponentType>();
function lazyScreen(loader: FeatureRoute['screen']): ComponentType {
  let component = lazyScreens.get(loader);
  if (!component) {
    component = lazy(loader);
    lazyScreens.set(loader, component);
  }
  return component;
}

function featureRoutes(feature: FeatureDefinition, enabled: boolean): RouteObject[] {
  return feature.routes.map((route) => {
    if (!enabled) return { path: route.path, element: <FeatureDisabled /> };
    const Screen = lazyScreen(route.screen);
    return {
      path: route.path,
      element: (
        <AccessGate access={route.access}>
          <Suspense fallback={<Loading />}>
            <Screen />
          </Suspense>
        </AccessGate>
      ),
    };
  });
}

/** `/` redirects to orders; the query (`p`, `lang`, …) travels along. */
function RedirectKeepingQuery({ to }: { to: string }) {
  const location = useLocation();
  return <Navigate to={{ pathname: to, search: location.search }} replace />;
}

/**
 * The catch-all of portal-core.md §2: an enabled feature's `*` route (external-page: a path equal
 * to an external navigation link's text embeds its URL, else 'Page not found'), otherwise NotFound.
 */
function catchAll(tenantFeatures: readonly string[]): RouteObject {
  const route = FEATURES.filter((feature) => isFeatureEnabled(feature, tenantFeatures))
    .flatMap((feature) => feature.routes)
    .find((candidate) => candidate.path === '*');
  if (!route) return { path: '*', element: <NotFound /> };
  const Screen = lazyScreen(route.screen);
  return {
    path: '*',
    element: (
      <Suspense fallback={<Loading />}>
        <Screen />
      </Suspense>
    ),
  };
}

/**
 * The route tree of route-inventory.txt assembled from the feature registry: an enabled
 * feature's routes show its screens behind their access rule, a disabled feature's routes show the
 * feature-disabled notice, `/` redirects to /orders, anything else is the catch-all.
 */
export function buildRoutes(tenantFeatures: readonly string[]): RouteObject[] {
  const children: RouteObject[] = [
    { index: true, element: <RedirectKeepingQuery to="/orders" /> },
    ...FEATURES.flatMap((feature) =>
      featureRoutes({ ...feature, routes: feature.routes.filter((route) => route.path !== '*') }, isFeatureEnabled(feature, tenantFeatures)),
    ),
    catchAll(tenantFeatures),
  ];
  return [{ path: '/', element: <Shell />, children }];
}

/** The menu items of the enabled features, in order (portal-core.md §2 "Menu items"). */
export function menuItems(tenantFeatures: readonly string[]) {
  return FEATURES.filter((feature) => feature.menu && isFeatureEnabled(feature, tenantFeatures))
    .map((feature) => feature.menu!)
    .sort((a, b) => a.order - b.order);
}

/** Whether an enabled feature serves this route (the footer links only to screens that exist). */
export function hasEnabledRoute(tenantFeatures: readonly string[], path: string): boolean {
  return FEATURES.some(
    (feature) => isFeatureEnabled(feature, tenantFeatures) && feature.routes.some((route) => route.path === path),
  );
}
