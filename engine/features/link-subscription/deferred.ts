import type { LazyScreen } from '../types';

/** What link-subscription loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  LinkSubscriptionScreen: () => import('./LinkSubscriptionScreen'),
  LinkConfirmScreen: () => import('./LinkConfirmScreen'),
} satisfies Record<string, LazyScreen>;
