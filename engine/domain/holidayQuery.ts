/**
 * The holiday service types and the query values of their routes (account-flows.md §2 "holiday-redirect,
 * holiday-break, holiday-download": redirects with query service = Redirect, Break or Download).
 */
export type HolidayServiceType = 'redirect' | 'break' | 'download';
export const HOLIDAY_SERVICE_TYPES: readonly HolidayServiceType[] = ['redirect', 'break', 'download'];

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
