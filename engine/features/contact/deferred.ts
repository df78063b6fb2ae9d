import type { LazyScreen } from '../types';

/** What contact loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  ContactScreen: () => import('./ContactScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
