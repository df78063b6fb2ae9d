import type { LazyScreen } from '../types';

/** What email-widget loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  EmailWidgetScreen: () => import('./EmailWidgetScreen'),
} satisfies Record<string, LazyScreen>;
