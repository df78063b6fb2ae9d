import type { ComponentType } from 'react';
import type { FeatureFlag } from '../domain/featureFlags';

/**
 * Route access levels of route-inventory.txt: login = needs a logged-in user; anonymous = open;
 * guest = only for users not logged in.
 */
export type RouteAccess = 'login' | 'anonymous' | 'guest';

export interface FeatureRoute {
  /** Path relative to the portal base, without leading slash (react-router syntax, e.g. `subscriptions/:id`). */
  path: string;
  access: RouteAccess;
  /** Lazy screen; each screen becomes its own chunk so a tenant ships only what it enables. */
  screen: () => Promise<{ default: ComponentType }>;
}

export interface FeatureMenuItem {
  /** Absolute route path the item links to; must be one of the feature's own routes. */
  to: string;
  /** Text key of the label (prefixed with the feature id). */
  labelKey: string;
  /** Position in the sidebar, ascending. */
  order: number;
}

/**
 * One feature: its id (= folder name = text-key prefix), the flag that switches it (none means
 * always on), its routes and its menu entry, declared in one place (CONVENTIONS.md, Backstage).
 * Keep these files free of React imports: the CLI reads the registry in Node.
 */
export interface FeatureDefinition {
  id: string;
  flag?: FeatureFlag;
  routes: FeatureRoute[];
  menu?: FeatureMenuItem;
}

export function defineFeature(feature: FeatureDefinition): FeatureDefinition {
  return feature;
}
