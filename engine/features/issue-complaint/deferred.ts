import type { LazyScreen } from '../types';

/** What issue-complaint loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  ComplaintScreen: () => import('./ComplaintScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
