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

import { addMonths } from './dates';

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

/**
 * The first day of the subscription's next billing period after `today`: its periods run from its
 * first day (validFromOnSaleDate) in steps of its billing frequency (portal-core.md §3
 * billingFrequency: 01, 03, 06, 12 months), so a yearly subscription that began on 5 February pays
 * again on 5 February, not on the first of next month. Undefined without either.
 */
export function nextBillingDay(
  s: { validFromOnSaleDate?: string | null; billingFrequency?: string | null },
  today: string,
): string | undefined {
  const months = Number(s.billingFrequency);
  if (!s.validFromOnSaleDate || !Number.isInteger(months) || months <= 0) return undefined;
  const first = dayOf(s.validFromOnSaleDate);
  if (first > today) return first;
  const monthIndex = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
  // From the first day each time, so a period that began on the 31st keeps its day where a month has it.
  let periods = Math.floor((monthIndex(today) - monthIndex(first)) / months);
  while (addMonths(first, periods * months) <= today) periods += 1;
  return addMonths(first, periods * months);
}

/**
 * The months one payment covers (portal-core.md §3 billingFrequency: 01, 03, 06, 12), a month where
 * the order system names none or another code: what a monthly price is multiplied by for the
 * subscription's next payment.
 */
export function billingPeriodMonths(s: { billingFrequency?: string | null }): number {
  const months = Number(s.billingFrequency);
  return Number.isInteger(months) && months > 0 ? months : 1;
}

/**
 * account-flows.md §4 "usually at the end of the payment period": the next payment day the order
 * system names, else the first day of the next billing period (nextBillingDay), else the first of
 * next month; never after the subscription's last day. When a payment method change takes effect.
 */
export function endOfPaymentPeriod(
  s: {
    renewal?: { autoRenewalNextPaymentDate?: string | null } | null;
    validFromOnSaleDate?: string | null;
    validToOnSaleDate?: string | null;
    billingFrequency?: string | null;
  },
  today: string,
): string {
  const next = s.renewal?.autoRenewalNextPaymentDate;
  const date = new Date(`${today}T00:00:00Z`);
  const periodEnd =
    next && next > today
      ? next
      : (nextBillingDay(s, today) ??
        new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)).toISOString().slice(0, 10));
  return capToTerm(periodEnd, lastDayOfTerm(s));
}
