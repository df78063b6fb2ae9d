import type { LazyScreen } from '../types';

/** What e-card loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  ECardScreen: () => import('./ECardScreen'),
} satisfies Record<string, LazyScreen>;
