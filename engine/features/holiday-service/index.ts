import { ROUTES, type RouteRef } from '../../domain/routeRefs';
import {
  HOLIDAY_FLAGS,
  HOLIDAY_QUERY_VALUES,
  HOLIDAY_SERVICE_FLAGS,
  HOLIDAY_SERVICE_TYPES,
  type HolidayServiceType,
} from '../../domain/holidayQuery';
import { defineFeature, deferredScreen, deferredActions } from '../types';

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
  routes: [
    {
      ref: ROUTES.holidayService,
      access: 'login',
      screen: deferredScreen('holiday-service', 'HolidayServiceScreen'),
    },
  ],
  redirects: HOLIDAY_SERVICE_TYPES.map((type) => ({
    from: TYPE_ROUTES[type],
    to: ROUTES.holidayService,
    query: { service: HOLIDAY_QUERY_VALUES[type] },
    flag: HOLIDAY_SERVICE_FLAGS[type],
  })),
  actions: deferredActions('holiday-service'),
});
