import type { LazyScreen } from '../types';

/** What external-page loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  ExternalPageScreen: () => import('./ExternalPageScreen'),
} satisfies Record<string, LazyScreen>;
