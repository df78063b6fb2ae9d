/**
 * Calendar arithmetic of the demo data on whole UTC days (days since 1970-01-01), so the generated
 * dates never shift with the machine's time zone.
 */
const MS_PER_DAY = 86_400_000;

/** The UTC calendar day of a moment. */
export function dayOf(date: Date): number {
  return Math.floor(date.getTime() / MS_PER_DAY);
}

export function toDay(year: number, month: number, dayOfMonth: number): number {
  return Math.floor(Date.UTC(year, month - 1, dayOfMonth) / MS_PER_DAY);
}

export function fromDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function parts(day: number): { year: number; month: number; dayOfMonth: number } {
  const d = new Date(day * MS_PER_DAY);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, dayOfMonth: d.getUTCDate() };
}

/** 0 Sunday … 6 Saturday. */
export function dayOfWeek(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCDay();
}

export function addDays(day: number, days: number): number {
  return day + days;
}

/** Same day of month `months` later (clamped to the month's last day). */
export function addMonths(day: number, months: number): number {
  const { year, month, dayOfMonth } = parts(day);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return toDay(target.getUTCFullYear(), target.getUTCMonth() + 1, Math.min(dayOfMonth, lastDay));
}
