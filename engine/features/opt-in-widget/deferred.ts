import type { LazyScreen } from '../types';

/** What opt-in-widget loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  OptInWidgetScreen: () => import('./OptInWidgetScreen'),
} satisfies Record<string, LazyScreen>;
