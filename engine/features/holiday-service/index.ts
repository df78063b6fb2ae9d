import { ROUTES } from '../../domain/routeRefs';
import { can, holidayServiceTypes } from '../../domain/capabilities';
import { HOLIDAY_QUERY_VALUES } from '../../domain/holidayQuery';
import { defineFeature } from '../types';

/**
 * Holiday service (account-flows.md §2 "Holiday service", §4, §5, §8), one feature behind the
 * three flags holiday-redirect, holiday-break and holiday-download: the subscription's holiday
 * page (the planned service, or the setup form with its date range and issues), the three
 * holiday-* routes that preselect a type, and the button on the subscription page.
 */
export const holidayServiceFeature = defineFeature({
  id: 'holiday-service',
  flags: ['holiday-redirect', 'holiday-break', 'holiday-download'],
  routes: [{ ref: ROUTES.holidayService, access: 'login', screen: () => import('./HolidayServiceScreen') }],
  redirects: [
    {
      from: ROUTES.holidayRedirect,
      to: ROUTES.holidayService,
      query: { service: HOLIDAY_QUERY_VALUES.redirect },
      flag: 'holiday-redirect',
    },
    {
      from: ROUTES.holidayBreak,
      to: ROUTES.holidayService,
      query: { service: HOLIDAY_QUERY_VALUES.break },
      flag: 'holiday-break',
    },
    {
      from: ROUTES.holidayDownload,
      to: ROUTES.holidayService,
      query: { service: HOLIDAY_QUERY_VALUES.download },
      flag: 'holiday-download',
    },
  ],
  actions: [
    {
      // portal-core.md §6 "holiday service: not externally managed, not licence manager, and (active
      // and not time-based, or suspended with an end date)", and at least one type on for the publication.
      id: 'holiday-service',
      allowed: (s, ctx) => can('holidayService', s, ctx) && holidayServiceTypes(s, ctx).length > 0,
      target: { kind: 'route', route: ROUTES.holidayService },
      labelKey: 'holiday-service.action',
      hiddenBy: 'holiday-service',
      order: 40,
      group: 'manage',
    },
  ],
});
