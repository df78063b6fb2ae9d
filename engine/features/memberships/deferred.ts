import type { LazyScreen } from '../types';

/** What memberships loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  MembershipsScreen: () => import('./MembershipsScreen'),
} satisfies Record<string, LazyScreen>;
