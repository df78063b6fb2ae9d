import type { LazyScreen } from '../types';

/** What opt-ins loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  OptInsScreen: () => import('./OptInsScreen'),
  OptInConfirmScreen: () => import('./OptInConfirmScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
