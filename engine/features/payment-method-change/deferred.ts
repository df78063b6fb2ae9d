import type { LazyScreen } from '../types';

/** What payment-method-change loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  PaymentDetailsScreen: () => import('./PaymentDetailsScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
