/**
 * Holiday service rules shared by the screen and the server (account-flows.md §2 "Holiday service",
 * §3, §4 "Holiday service", §5 "Holiday", §9; portal-core.md §4 holiday types and precedence).
 */
import { addressErrors, type AddressError, type AddressInput, type AddressRuleContext } from './addressRules';

import { HOLIDAY_SERVICE_TYPES, type HolidayServiceType } from './holidayQuery';
import { AFTER_TERM_END, capToTerm, withinTerm, type TermEnd } from './subscriptionTerm';
import { addMonths, compareIso } from './dates';

// The route's query values live apart (holidayQuery.ts): the feature registry, which every screen
// loads, needs only them; this module's rules load with the holiday screen.
export {
  HOLIDAY_QUERY_VALUES,
  HOLIDAY_SERVICE_TYPES,
  holidayTypeOfQuery,
  type HolidayServiceType,
} from './holidayQuery';

/** §9 "picker default 4"; the tenant's defaultMaxDuration replaces it. */
export const DEFAULT_HOLIDAY_WEEKS = 4;

interface HolidayConfig {
  defaultMaxDuration?: number;
  maxDurations?: ReadonlyArray<{ type: HolidayServiceType; weeks: number; publications?: readonly string[] }>;
}

/** §5: "maximum duration per type and publication from tenant in weeks": an entry naming the publication wins. */
export function maxDurationWeeks(
  config: HolidayConfig | undefined,
  type: HolidayServiceType,
  publication: string,
): number {
  const entries = (config?.maxDurations ?? []).filter((entry) => entry.type === type);
  const forPublication = entries.find((entry) => entry.publications?.includes(publication));
  const general = entries.find((entry) => !entry.publications || entry.publications.length === 0);
  return (forPublication ?? general)?.weeks ?? config?.defaultMaxDuration ?? DEFAULT_HOLIDAY_WEEKS;
}

const DAY = 86_400_000;
export const addDaysIso = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** §9 "Holiday and timed address start: at least tomorrow". */
export const earliestHolidayStart = (today: string) => addDaysIso(today, 1);

/**
 * The last day a service starting on `dateFrom` may run: the type's weeks; a download at most one
 * month (§5 "maximum duration … in weeks"). Both days count (issuesInsideDates), so 4 weeks from a
 * Monday end on the fourth Sunday: 28 days, four issues of a weekly, not a fifth on the 29th day;
 * a month from 23 November ends on 22 December, from 31 January on the last day of February.
 */
export function latestHolidayEnd(type: HolidayServiceType, dateFrom: string, weeks: number): string {
  const byWeeks = addDaysIso(dateFrom, weeks * 7 - 1);
  if (type !== 'download') return byWeeks;
  // The day before the same date a month on; where the next month has no such date (from 31
  // January), its last day, which addMonths gives.
  const next = addMonths(dateFrom, 1);
  const month = next.slice(8) < dateFrom.slice(8) ? next : addDaysIso(next, -1);
  return month < byWeeks ? month : byWeeks;
}

/**
 * The last day the picker offers for a service starting on `dateFrom`: the type's limit
 * (latestHolidayEnd), and never after the subscription's last day (subscriptionTerm.ts).
 */
export function holidayEndLimit(
  type: HolidayServiceType,
  dateFrom: string,
  weeks: number,
  termEnd: TermEnd = null,
): string {
  return capToTerm(latestHolidayEnd(type, dateFrom, weeks), termEnd);
}

export type HolidayRangeError = {
  field: 'dateFrom' | 'dateTo';
  code: 'required' | 'too_early' | 'before_start' | 'too_long' | typeof AFTER_TERM_END;
};

/**
 * §5 "date range required; earliest start tomorrow; maximum duration per type and publication";
 * and no day after the subscription's end (`termEnd`, subscriptionTerm.ts).
 */
export function holidayRangeErrors(
  input: { type: HolidayServiceType; dateFrom?: string | null; dateTo?: string | null },
  limits: { today: string; weeks: number; termEnd?: TermEnd },
): HolidayRangeError[] {
  const errors: HolidayRangeError[] = [];
  const termEnd = limits.termEnd ?? null;
  if (!input.dateFrom) errors.push({ field: 'dateFrom', code: 'required' });
  if (!input.dateTo) errors.push({ field: 'dateTo', code: 'required' });
  if (!input.dateFrom || !input.dateTo) return errors;
  if (input.dateFrom < earliestHolidayStart(limits.today))
    errors.push({ field: 'dateFrom', code: 'too_early' });
  else if (!withinTerm(input.dateFrom, termEnd)) errors.push({ field: 'dateFrom', code: AFTER_TERM_END });
  if (input.dateTo < input.dateFrom) errors.push({ field: 'dateTo', code: 'before_start' });
  else {
    // Past both limits, the error names the earlier one: the one the form's hint shows.
    const longest = latestHolidayEnd(input.type, input.dateFrom, limits.weeks);
    const tooLong = input.dateTo > longest;
    const afterTerm = !withinTerm(input.dateTo, termEnd);
    if (tooLong && (!afterTerm || withinTerm(longest, termEnd)))
      errors.push({ field: 'dateTo', code: 'too_long' });
    else if (afterTerm) errors.push({ field: 'dateTo', code: AFTER_TERM_END });
  }
  return errors;
}

/** Whether any day of a service can still be chosen: its earliest start lies within the subscription's term. */
export const holidayPossibleWithinTerm = (earliestStart: string, termEnd: TermEnd) =>
  withinTerm(earliestStart, termEnd);

/**
 * §4: "submit is disabled when there are no issues or only one issue that has already shipped"
 * (an issue whose first shipping day is today or earlier cannot be considered any more, §8). A
 * period whose several issues have all shipped holds nothing to act on either, as the one shipped
 * issue does: it is blocked the same way (the spec's wording covers the single case only, and
 * a service without an issue still to come has no first shipping day to hold).
 */
export function holidaySubmitBlock(
  issues: ReadonlyArray<{ dateOfFirstShipping?: string | null; dateOfFirstSale: string; shipped?: boolean }>,
  today: string,
): 'no_issues' | 'already_shipped' | null {
  if (issues.length === 0) return 'no_issues';
  // The server's `shipped` flag where the issue has one (its clock decides), else the first shipping day.
  const shipped = (issue: (typeof issues)[number]) =>
    issue.shipped ?? (issue.dateOfFirstShipping ?? issue.dateOfFirstSale) <= today;
  if (issues.every(shipped)) return 'already_shipped';
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
export function activePlannedService<T extends Pick<PlannedHolidayService, 'type'>>(
  services: readonly T[],
): T | undefined {
  return HOLIDAY_SERVICE_TYPES.map((type) => services.find((s) => s.type === type)).find(
    (s) => s !== undefined,
  );
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
export function defaultHolidayRange(
  type: HolidayServiceType,
  earliestStart: string,
  maxWeeks: number,
  termEnd: TermEnd = null,
): { dateFrom: string; dateTo: string } {
  return {
    dateFrom: earliestStart,
    dateTo: holidayEndLimit(type, earliestStart, Math.min(DEFAULT_HOLIDAY_WEEKS, maxWeeks), termEnd),
  };
}

type RangeIssue = {
  issueNumber: string | null;
  issue?: string;
  shipped?: boolean;
  dateOfFirstShipping?: string | null;
  dateOfFirstSale: string;
};

/** An issue already dispatched cannot be considered any more (§8): by the server's flag, else by its first shipping day. */
export const isHolidayIssueShipped = (issue: RangeIssue, today: string) =>
  issue.shipped ?? (issue.dateOfFirstShipping ?? issue.dateOfFirstSale) <= today;

/** A service's dates: its first and last day, both included (an open end runs on). */
export type HolidayDates = { dateFrom: string; dateTo: string | null };

/**
 * The issues a service's dates pick: those on sale from its first to its last day, both included
 * (§2 "a date range picking issues"). A suspension's issues lie inside its dates: a pause
 * of 16.11.–16.12.2026 pauses the issue on sale on 5.12., not the one of 5.1.2027.
 */
export function issuesInsideDates<T extends { dateOfFirstSale: string }>(
  issues: readonly T[],
  dates: HolidayDates,
): T[] {
  return issues.filter(
    (issue) =>
      issue.dateOfFirstSale >= dates.dateFrom &&
      (dates.dateTo === null || issue.dateOfFirstSale <= dates.dateTo),
  );
}

type IssueSpan = { issueNumberFrom: string | null; issueNumberTo: string | null };
const issueName = (issue: Pick<RangeIssue, 'issueNumber' | 'issue'> | undefined) =>
  issue ? (issue.issueNumber ?? issue.issue ?? null) : null;

/** The first and last issue inside a service's dates (§3 fromIssueNumber, toIssueNumber), earliest first; none without issues. */
export function issueSpanInsideDates(
  issues: ReadonlyArray<Pick<RangeIssue, 'issueNumber' | 'issue' | 'dateOfFirstSale'>>,
  dates: HolidayDates,
): IssueSpan {
  const inside = [...issuesInsideDates(issues, dates)].sort((a, b) =>
    compareIso(a.dateOfFirstSale, b.dateOfFirstSale),
  );
  return { issueNumberFrom: issueName(inside[0]), issueNumberTo: issueName(inside[inside.length - 1]) };
}

/**
 * The issue numbers a request names (§3 issueNumberFrom, issueNumberTo): the first and last issue
 * inside the dates (when given) still to come. The screen sends them, the server stores them.
 */
export function holidayIssueSpan(
  issues: readonly RangeIssue[],
  today: string,
  dates?: HolidayDates,
): IssueSpan {
  const considered = (dates ? issuesInsideDates(issues, dates) : issues).filter(
    (issue) => !isHolidayIssueShipped(issue, today),
  );
  return issueSpanInsideDates(considered, dates ?? { dateFrom: '', dateTo: null });
}

/**
 * §5 "redirect requires a valid address": the address rules of addressRules.ts, someone to deliver
 * to (a last name or a company) among them. A redirect address is new, never one on record.
 */
export function holidayAddressErrors(address: AddressInput, ctx: AddressRuleContext): AddressError[] {
  return addressErrors(address, { ...ctx, onRecord: undefined });
}
