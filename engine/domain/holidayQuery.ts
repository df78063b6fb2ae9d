/**
 * The holiday service types and the query values of their routes (account-flows.md §2 "holiday-redirect,
 * holiday-break, holiday-download": redirects with query service = Redirect, Break or Download).
 */
import type { FeatureFlag } from './featureFlags';

export type HolidayServiceType = 'redirect' | 'break' | 'download';
export const HOLIDAY_SERVICE_TYPES: readonly HolidayServiceType[] = ['redirect', 'break', 'download'];

/**
 * The flag that switches each type on (portal-core.md §6 "Tenant feature list"), written once: the
 * holiday-service feature's flags and redirects and the capability rule (engine/domain/capabilities.ts
 * holidayService, holidayServiceTypes) read this table.
 */
export const HOLIDAY_SERVICE_FLAGS = {
  redirect: 'holiday-redirect',
  break: 'holiday-break',
  download: 'holiday-download',
} as const satisfies Record<HolidayServiceType, FeatureFlag>;

/** The flags of the holiday service: any of them on switches the feature on. */
export const HOLIDAY_FLAGS: readonly FeatureFlag[] = HOLIDAY_SERVICE_TYPES.map(
  (type) => HOLIDAY_SERVICE_FLAGS[type],
);

/** The query `service` of the route (Redirect, Break, Download) and its type. */
export const HOLIDAY_QUERY_VALUES: Readonly<Record<HolidayServiceType, string>> = {
  redirect: 'Redirect',
  break: 'Break',
  download: 'Download',
};
export function holidayTypeOfQuery(value: string | null | undefined): HolidayServiceType | undefined {
  return HOLIDAY_SERVICE_TYPES.find(
    (type) => HOLIDAY_QUERY_VALUES[type].toLowerCase() === (value ?? '').toLowerCase(),
  );
}
