/**
 * Issue calendar rules shared by the screens and the server (portal-core.md §2 "Issue calendar",
 * §9 "Calendar window" and "Issue calendar excludes tenant-blacklisted publications"). Whether a
 * subscription may show the calendar (§6) is the `issueCalendar` capability of capabilities.ts.
 */
import { isFeatureOn, type FeatureSwitches } from './tenantFeatures';

export type IssueCalendarMode = 'any' | 'calendar' | 'list';

export interface IssueCalendarSettings extends FeatureSwitches {
  issueCalendar?: { mode?: IssueCalendarMode; blacklistedPublications?: readonly string[] };
}

/** §9: issue calendar excludes tenant-blacklisted publications (issueCalendar.blacklistedPublications and the feature's publication blacklist). */
export function isPublicationInCalendar(tenant: IssueCalendarSettings, publication: string): boolean {
  if (!isFeatureOn(tenant, 'issue-calendar', publication)) return false;
  return !(tenant.issueCalendar?.blacklistedPublications ?? []).includes(publication);
}

/** §2: mode any lets the user toggle (starting with the calendar); calendar and list fix the view. */
export function calendarMode(tenant: IssueCalendarSettings): IssueCalendarMode {
  return tenant.issueCalendar?.mode ?? 'any';
}

/** YYYY-MM-DD of a UTC day. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** §9 "Calendar window": from today to one month ahead (same day of the next month, clamped). */
export function calendarWindow(today: Date): { dateFrom: string; dateTo: string } {
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth();
  const lastDayNextMonth = new Date(Date.UTC(year, month + 2, 0)).getUTCDate();
  const to = new Date(Date.UTC(year, month + 1, Math.min(today.getUTCDate(), lastDayNextMonth)));
  return { dateFrom: isoDay(today), dateTo: isoDay(to) };
}

export const ISO_DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function isIsoDay(value: string): boolean {
  if (!ISO_DAY_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && isoDay(date) === value;
}

/**
 * Fuzzy search on the publication description (§2 "fuzzy search on the publication
 * description"): every character of the query appears in order in the text, case- and
 * accent-insensitive; a lower score is a better match (contiguous, early matches win).
 * Returns undefined when the text does not match.
 */
export function fuzzyScore(query: string, text: string): number | undefined {
  const fold = (value: string) =>
    value
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const q = fold(query).replace(/\s+/g, '');
  if (!q) return 0;
  // Spaces are ignored on both sides, so "garten fru" finds "Garten Frühling" as a substring.
  const t = fold(text).replace(/\s+/g, '');
  const direct = t.indexOf(q);
  if (direct >= 0) return direct; // a plain substring beats any scattered match
  let score = 1000;
  let position = -1;
  for (const char of q) {
    const next = t.indexOf(char, position + 1);
    if (next < 0) return undefined;
    score += next - position - 1; // gaps cost
    position = next;
  }
  return score;
}

/** The items whose text fuzzily matches the query, best first (stable for equal scores). */
export function fuzzyFilter<T>(items: readonly T[], query: string, text: (item: T) => string): T[] {
  return items
    .map((item, index) => ({ item, index, score: fuzzyScore(query, text(item)) }))
    .filter((entry): entry is { item: T; index: number; score: number } => entry.score !== undefined)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .map((entry) => entry.item);
}

/**
 * Whether a subscription's issue of that day falls inside its suspension (a booked holiday break,
 * portal-core.md §4 IU, or the order system's): it is not delivered to it, so the calendar says
 * "paused" beside it, as the subscription page leaves it out of the next issue. Days compare as
 * ISO text; an open suspension runs on.
 */
export function isIssuePaused(
  suspension: { suspendedFromDate: string; suspendedToDate: string | null } | null | undefined,
  day: string,
): boolean {
  if (!suspension?.suspendedFromDate || day < suspension.suspendedFromDate) return false;
  return suspension.suspendedToDate === null || day <= suspension.suspendedToDate;
}
