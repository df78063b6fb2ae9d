import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/**
 * The issue calendar (portal-core.md §2 "Issue calendar"), switched by the `issue-calendar` flag:
 * the overview (a publication picker for anonymous visitors, the subscriptions' calendar for
 * logged-in users) and one publication's calendar.
 */
export const issueCalendarFeature = defineFeature({
  id: 'issue-calendar',
  flags: ['issue-calendar'],
  routes: [
    {
      ref: ROUTES.issueCalendar,
      access: 'anonymous',
      screen: deferredScreen('issue-calendar', 'IssueCalendarScreen'),
    },
    {
      ref: ROUTES.issueCalendarPublication,
      access: 'anonymous',
      screen: deferredScreen('issue-calendar', 'PublicationCalendarScreen'),
    },
  ],
  menu: { route: ROUTES.issueCalendar, labelKey: 'issue-calendar.menuTitle', order: 20 },
});
