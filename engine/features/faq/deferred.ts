import type { LazyScreen } from '../types';

/** What faq loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  FaqScreen: () => import('./FaqScreen'),
} satisfies Record<string, LazyScreen>;
