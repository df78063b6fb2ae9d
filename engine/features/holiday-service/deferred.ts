import type { LazyScreen } from '../types';

/** What holiday-service loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  HolidayServiceScreen: () => import('./HolidayServiceScreen'),
} satisfies Record<string, LazyScreen>;

export const actions = () => import('./actions');
