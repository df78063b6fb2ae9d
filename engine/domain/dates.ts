/**
 * Days and their formats, for the screens, the mails and the documents alike. Dates travel as ISO
 * days (`YYYY-MM-DD`, the order system's and the API's form) and are read and formatted in UTC, so a
 * day never shifts by the reader's time zone (portal-core.md §9 "Date formats").
 */

import { localeData, type DayPattern } from './locales';

/**
 * ISO days and instants (the same form each) in time order: their characters compare as their
 * times do. `localeCompare` would order them alike but loads the browser's collation tables on
 * its first call, 60 to 100 ms of a phone's main thread on the page that sorts first.
 */
export const compareIso = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The ISO day (`YYYY-MM-DD`) of an instant, in UTC. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * A day (or an instant) in the locale's medium style: 01.02.2027 (de-DE), 1 Feb 2027 (en-GB); the
 * screens, the mails and the documents use it, so a day reads alike in all of them. Empty for no
 * value; a value that is not a date is shown as it came.
 */
export function formatDate(value: string | null | undefined, locale: string): string {
  if (!value) return '';
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return value;
  const pattern = localeData(locale)?.day;
  const year = date.getUTCFullYear();
  return pattern && year >= 1000 && year <= 9999
    ? writeDay(date, pattern)
    : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/**
 * A day written by its locale's pattern (LOCALE_TABLE `day`), the way Intl's medium style writes it
 * (tests/domain/dates.test.ts compares the two for every day of many years). Not Intl itself: its
 * first date format on a page loads the browser's locale tables, 130 to 260 ms of a phone's main
 * thread on the orders page, whose cards show a day each.
 */
function writeDay(date: Date, { pattern, months }: DayPattern): string {
  const day = date.getUTCDate();
  const month = date.getUTCMonth();
  const parts: Record<string, string> = {
    D: String(day),
    DD: String(day).padStart(2, '0'),
    MM: String(month + 1).padStart(2, '0'),
    MMM: months?.[month] ?? '',
    YYYY: String(date.getUTCFullYear()),
  };
  return pattern.replace(/YYYY|MMM|MM|DD|D/g, (token) => parts[token]!);
}

/**
 * An instant with its time, in the locale's medium date and short time: 30.11.2026, 18:34 (de-DE),
 * 30 Nov 2026, 18:34 (en-GB), so it reads like formatDate's days; in `timeZone`, else the reader's
 * own (a screen's "from 18:34" is the subscriber's clock).
 */
export function formatDateTime(value: string | Date, locale: string, timeZone?: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

/**
 * Adds calendar months to an ISO day, kept inside the month it lands in: 30 November + 3 months is
 * 28 February (29 in a leap year), as a subscriber counts three months and billing systems do, not
 * 2 March as `Date` overflows. A day the month has stays as it is.
 */
export function addMonths(day: string, months: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  const wanted = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastOfMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(wanted, lastOfMonth));
  return date.toISOString().slice(0, 10);
}

/** An ISO day moved by whole days (negative: back), in UTC as every day of the portal is. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
