/**
 * An amount in its currency (ISO code, e.g. EUR) for de-DE and en-GB; a code Intl cannot format
 * (one an order system sent malformed) shows the plain number and the code, rather than failing the
 * screen, mail or document that shows it.
 */
export function formatMoney(amount: number | null | undefined, currency: string, locale: string): string {
  if (amount === null || amount === undefined) return '';
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}
