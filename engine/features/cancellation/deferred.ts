import type { LazyScreen } from '../types';

/** What cancellation loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  CancellationScreen: () => import('./CancellationScreen'),
  CancellationEntryScreen: () => import('./CancellationEntryScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
