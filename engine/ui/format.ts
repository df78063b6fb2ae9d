/** An amount in its currency (ISO code, e.g. EUR) for de-DE and en-GB; an unknown code shows the plain number and the code. */
export function formatMoney(amount: number | null | undefined, currency: string, locale: string): string {
  if (amount === null || amount === undefined) return '';
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}
