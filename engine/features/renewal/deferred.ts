import type { LazyScreen } from '../types';

/** What renewal loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  RenewalScreen: () => import('./RenewalScreen'),
  RenewalEntryScreen: () => import('./RenewalEntryScreen'),
  BulkRenewalScreen: () => import('./BulkRenewalScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
