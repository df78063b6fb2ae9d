/** Amounts in their currency (engine/domain/money.ts): a code Intl cannot format is shown, not thrown. */
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../engine/domain/money';

describe('formatMoney', () => {
  it('formats an amount in its currency for each language', () => {
    expect(formatMoney(90, 'EUR', 'de-DE')).toBe('90,00\u00a0€');
    expect(formatMoney(90, 'GBP', 'en-GB')).toBe('£90.00');
  });

  it('shows the number and the code of a malformed currency rather than failing', () => {
    expect(formatMoney(90, 'EURO-DOLLAR-XX', 'de-DE')).toBe('90,00 EURO-DOLLAR-XX');
    expect(formatMoney(1234.5, '€', 'en-GB')).toBe('1,234.50 €');
    expect(formatMoney(null, 'EUR', 'en-GB')).toBe('');
  });
});
