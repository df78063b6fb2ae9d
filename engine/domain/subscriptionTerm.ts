/**
 * A subscription's term and its end, read by the screens and the server alike, so that no date or
 * issue after the subscription's end is offered.
 *
 * portal-core.md §3 "Subscription": validFromOnSaleDate and validToOnSaleDate, the on-sale days of
 * the term's first and last issue; §4 "Order status": AK is "active with known termination date".
 * A cancellation sets it to the chosen issue's dateOfFirstSale (account-flows.md §3 "Cancellation
 * infos", §4 "Cancellation"), so "zum 05.01.2027 (Ausgabe 1/2027)" ends on 2027-01-05. The end is
 * inclusive: the last issue, on sale on that day, is still the subscriber's; nothing after it is.
 * Without an end the subscription runs on and nothing is capped.
 */

/** The last day of the term ('YYYY-MM-DD'), or null while the subscription has no end. */
export type TermEnd = string | null;

const dayOf = (value: string) => value.slice(0, 10);

/** The last day of the subscription's term: the on-sale day of its last issue (validToOnSaleDate). */
export function lastDayOfTerm(s: { validToOnSaleDate?: string | null }): TermEnd {
  return s.validToOnSaleDate ? dayOf(s.validToOnSaleDate) : null;
}

/** Whether a day lies within the term: on or before its last day (always, without an end). */
export function withinTerm(day: string, end: TermEnd): boolean {
  return end === null || dayOf(day) <= end;
}

/** The day, or the term's last day when the day lies after it. */
export function capToTerm(day: string, end: TermEnd): string {
  return withinTerm(day, end) ? day : end!;
}

/** The issues of the term: those on sale on or before its last day. */
export function issuesWithinTerm<T extends { dateOfFirstSale: string }>(
  issues: readonly T[],
  end: TermEnd,
): T[] {
  return issues.filter((issue) => withinTerm(issue.dateOfFirstSale, end));
}

/**
 * A date window cut at the term's end: its part up to the last day, or null when it begins after
 * the end (nothing of it lies within the term).
 */
export function windowWithinTerm(
  window: { dateFrom: string; dateTo: string },
  end: TermEnd,
): { dateFrom: string; dateTo: string } | null {
  if (!withinTerm(window.dateFrom, end)) return null;
  return { dateFrom: window.dateFrom, dateTo: capToTerm(window.dateTo, end) };
}

/** The field code of a chosen date after the end, in the server's `details.fields` and the screens' checks. */
export const AFTER_TERM_END = 'after_term_end';

/** The server's message for a date after the end (the screens show their own text for the code). */
export const afterTermEndMessage = (end: string) =>
  `This subscription ends on ${end} (its last issue): please choose a date up to that day.`;
