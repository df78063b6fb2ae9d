/** Today in the visitor's time zone, YYYY-MM-DD: the day the date rules of engine/domain compare with. */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
