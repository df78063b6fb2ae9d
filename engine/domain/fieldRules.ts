/**
 * Field rules shared by the forms and the server (portal-core.md §5, §9). Limits live here once.
 */

/** A pragmatic e-mail check: one @, something before, a dot in the domain, no spaces. */
export function isPlausibleEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
