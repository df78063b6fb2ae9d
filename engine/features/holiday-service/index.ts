import { ROUTES, type RouteRef } from '../../domain/routeRefs';
import { can } from '../../domain/capabilities';
import {
  HOLIDAY_FLAGS,
  HOLIDAY_QUERY_VALUES,
  HOLIDAY_SERVICE_FLAGS,
  HOLIDAY_SERVICE_TYPES,
  type HolidayServiceType,
} from '../../domain/holidayQuery';
import { defineFeature } from '../types';

/** The route of each type (route-inventory.txt): it preselects the type on the holiday page. */
const TYPE_ROUTES: Record<HolidayServiceType, RouteRef> = {
  redirect: ROUTES.holidayRedirect,
  break: ROUTES.holidayBreak,
  download: ROUTES.holidayDownload,
};

/**
 * Holiday service (account-flows.md §2 "Holiday service", §4, §5, §8), one feature behind the
 * three flags holiday-redirect, holiday-break and holiday-download (engine/domain/holidayQuery.ts
 * HOLIDAY_SERVICE_FLAGS): the subscription's holiday page (the planned service, or the setup form
 * with its date range and issues), the three holiday-* routes that preselect a type, each on with
 * its type's flag, and the button on the subscription page.
 */
export const holidayServiceFeature = defineFeature({
  id: 'holiday-service',
  flags: HOLIDAY_FLAGS,
  routes: [{ ref: ROUTES.holidayService, access: 'login', screen: () => import('./HolidayServiceScreen') }],
  redirects: HOLIDAY_SERVICE_TYPES.map((type) => ({
    from: TYPE_ROUTES[type],
    to: ROUTES.holidayService,
    query: { service: HOLIDAY_QUERY_VALUES[type] },
    flag: HOLIDAY_SERVICE_FLAGS[type],
  })),
  actions: [
    {
      // portal-core.md §6 "holiday service: not externally managed, not licence manager, and (active
      // and not time-based, or suspended with an end date)"; the capability's flags are the types'
      // flags, so it also asks that at least one type is on for the publication.
      id: 'holiday-service',
      allowed: (s, ctx) => can('holidayService', s, ctx),
      target: { kind: 'route', route: ROUTES.holidayService },
      labelKey: 'holiday-service.action',
      hiddenBy: 'holiday-service',
      order: 40,
      group: 'manage',
    },
  ],
});
