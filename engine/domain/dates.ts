/**
 * Days and their formats, for the screens, the mails and the documents alike. Dates travel as ISO
 * days (`YYYY-MM-DD`, the order system's and the API's form) and are read and formatted in UTC, so a
 * day never shifts by the reader's time zone (portal-core.md §9 "Date formats").
 */

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
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
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
