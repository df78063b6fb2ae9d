import { defineFeature } from '../types';

/**
 * The issue calendar (portal-core.md §2 "Issue calendar"), switched by the `issue-calendar` flag:
 * the overview (a publication picker for anonymous visitors, the subscriptions' calendar for
 * logged-in users) and one publication's calendar.
 */
export const issueCalendarFeature = defineFeature({
  id: 'issue-calendar',
  flag: 'issue-calendar',
  routes: [
    { path: 'issue-calendar', access: 'anonymous', screen: () => import('./IssueCalendarScreen') },
    { path: 'issue-calendar/publications/:publication', access: 'anonymous', screen: () => import('./PublicationCalendarScreen') },
  ],
  menu: { to: '/issue-calendar', labelKey: 'issue-calendar.menuTitle', order: 20 },
});
