import type { LazyScreen } from '../types';

/** What bundle-group loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  BundleGroupScreen: () => import('./BundleGroupScreen'),
} satisfies Record<string, LazyScreen>;
