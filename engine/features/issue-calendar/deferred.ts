import type { LazyScreen } from '../types';

/** What issue-calendar loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  IssueCalendarScreen: () => import('./IssueCalendarScreen'),
  PublicationCalendarScreen: () => import('./PublicationCalendarScreen'),
} satisfies Record<string, LazyScreen>;
