import type { LazyScreen } from '../types';

/** What business-partners loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  BusinessPartnersScreen: () => import('./BusinessPartnersScreen'),
} satisfies Record<string, LazyScreen>;
