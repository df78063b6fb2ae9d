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
