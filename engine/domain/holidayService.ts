/**
 * Holiday service rules shared by the screen and the server (account-flows.md §2 "Holiday service",
 * §3, §4 "Holiday service", §5 "Holiday", §9; portal-core.md §4 holiday types and precedence).
 */
import { addressErrors, type AddressError, type AddressInput, type AddressRuleContext } from './addressRules';

import { HOLIDAY_SERVICE_TYPES, type HolidayServiceType } from './holidayQuery';

// The route's query values live apart (holidayQuery.ts): the feature registry, which every screen
// loads, needs only them; this module's rules load with the holiday screen.
export { HOLIDAY_QUERY_VALUES, HOLIDAY_SERVICE_TYPES, holidayTypeOfQuery, type HolidayServiceType } from './holidayQuery';

/** §9 "picker default 4"; the tenant's defaultMaxDuration replaces it. */
export const DEFAULT_HOLIDAY_WEEKS = 4;

interface HolidayConfig {
  defaultMaxDuration?: number;
  maxDurations?: ReadonlyArray<{ type: HolidayServiceType; weeks: number; publications?: readonly string[] }>;
}

/** §5: "maximum duration per type and publication from tenant in weeks": an entry naming the publication wins. */
export function maxDurationWeeks(config: HolidayConfig | undefined, type: HolidayServiceType, publication: string): number {
  const entries = (config?.maxDurations ?? []).filter((entry) => entry.type === type);
  const forPublication = entries.find((entry) => entry.publications?.includes(publication));
  const general = entries.find((entry) => !entry.publications || entry.publications.length === 0);
  return (forPublication ?? general)?.weeks ?? config?.defaultMaxDuration ?? DEFAULT_HOLIDAY_WEEKS;
}

const DAY = 86_400_000;
export const addDaysIso = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const addMonthIso = (day: string) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString().slice(0, 10);
};

/** §9 "Holiday and timed address start: at least tomorrow". */
export const earliestHolidayStart = (today: string) => addDaysIso(today, 1);

/** The last day a service starting on `dateFrom` may run: the type's weeks; a download at most one month (§5). */
export function latestHolidayEnd(type: HolidayServiceType, dateFrom: string, weeks: number): string {
  const byWeeks = addDaysIso(dateFrom, weeks * 7);
  if (type !== 'download') return byWeeks;
  const month = addMonthIso(dateFrom);
  return month < byWeeks ? month : byWeeks;
}

export type HolidayRangeError = { field: 'dateFrom' | 'dateTo'; code: 'required' | 'too_early' | 'before_start' | 'too_long' };

/** §5 "date range required; earliest start tomorrow; maximum duration per type and publication". */
export function holidayRangeErrors(input: { type: HolidayServiceType; dateFrom?: string | null; dateTo?: string | null }, limits: { today: string; weeks: number }): HolidayRangeError[] {
  const errors: HolidayRangeError[] = [];
  if (!input.dateFrom) errors.push({ field: 'dateFrom', code: 'required' });
  if (!input.dateTo) errors.push({ field: 'dateTo', code: 'required' });
  if (!input.dateFrom || !input.dateTo) return errors;
  if (input.dateFrom < earliestHolidayStart(limits.today)) errors.push({ field: 'dateFrom', code: 'too_early' });
  if (input.dateTo < input.dateFrom) errors.push({ field: 'dateTo', code: 'before_start' });
  else if (input.dateTo > latestHolidayEnd(input.type, input.dateFrom, limits.weeks)) errors.push({ field: 'dateTo', code: 'too_long' });
  return errors;
}

/**
 * §4: "submit is disabled when there are no issues or only one issue that has already shipped"
 * (an issue whose first shipping day is today or earlier cannot be considered any more, §8).
 */
export function holidaySubmitBlock(issues: ReadonlyArray<{ dateOfFirstShipping?: string | null; dateOfFirstSale: string; shipped?: boolean }>, today: string): 'no_issues' | 'already_shipped' | null {
  if (issues.length === 0) return 'no_issues';
  // The server's `shipped` flag where the issue has one (its clock decides), else the first shipping day.
  const shipped = (issue: (typeof issues)[number]) => issue.shipped ?? (issue.dateOfFirstShipping ?? issue.dateOfFirstSale) <= today;
  if (issues.length === 1 && shipped(issues[0])) return 'already_shipped';
  return null;
}

/** A planned or running service, as the active view shows it (§3 planned-service info). */
export interface PlannedHolidayService {
  type: HolidayServiceType;
  dateFrom: string;
  dateTo: string | null;
  /** First shipping day of the first issue it concerns (redirect). */
  firstIssueShipping: string | null;
}

/** §4 precedence: "redirect, then break, then download". */
export function activePlannedService<T extends Pick<PlannedHolidayService, 'type'>>(services: readonly T[]): T | undefined {
  return HOLIDAY_SERVICE_TYPES.map((type) => services.find((s) => s.type === type)).find((s) => s !== undefined);
}

/**
 * §4: cancel "only if cancellable: redirect while its first issue has not shipped; suspension when
 * not currently suspended; download never".
 */
export function canCancelHolidayService(service: PlannedHolidayService, today: string): boolean {
  switch (service.type) {
    case 'redirect':
      return (service.firstIssueShipping ?? service.dateFrom) > today;
    case 'break':
      return service.dateFrom > today;
    case 'download':
      return false;
  }
}

/**
 * The range the setup form opens with (§9 "picker default 4"): from the earliest start, four weeks
 * or the type's maximum if shorter (a download at most one month).
 */
export function defaultHolidayRange(type: HolidayServiceType, earliestStart: string, maxWeeks: number): { dateFrom: string; dateTo: string } {
  return { dateFrom: earliestStart, dateTo: latestHolidayEnd(type, earliestStart, Math.min(DEFAULT_HOLIDAY_WEEKS, maxWeeks)) };
}

type RangeIssue = { issueNumber: string | null; issue?: string; shipped?: boolean; dateOfFirstShipping?: string | null; dateOfFirstSale: string };

/** An issue already dispatched cannot be considered any more (§8): by the server's flag, else by its first shipping day. */
export const isHolidayIssueShipped = (issue: RangeIssue, today: string) => issue.shipped ?? (issue.dateOfFirstShipping ?? issue.dateOfFirstSale) <= today;

/** The issue numbers a request names (§3 issueNumberFrom, issueNumberTo): the first and last issue of the range still to come. */
export function holidayIssueSpan(issues: readonly RangeIssue[], today: string): { issueNumberFrom: string | null; issueNumberTo: string | null } {
  const considered = issues.filter((issue) => !isHolidayIssueShipped(issue, today));
  const number = (issue: RangeIssue | undefined) => (issue ? (issue.issueNumber ?? issue.issue ?? null) : null);
  return { issueNumberFrom: number(considered[0]), issueNumberTo: number(considered[considered.length - 1]) };
}

/**
 * §5 "redirect requires a valid address": the address rules of addressRules.ts, and someone to
 * deliver to — a last name or a company (the server refuses the redirect without either).
 */
export function holidayAddressErrors(address: AddressInput, ctx: AddressRuleContext): AddressError[] {
  const errors = addressErrors(address, ctx);
  if (!address.lastName1?.trim() && !address.company1?.trim() && !errors.some((error) => error.field === 'lastName1')) errors.push({ field: 'lastName1', code: 'required' });
  return errors;
}
