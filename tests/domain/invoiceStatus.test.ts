/**
 * The status an invoice shows agrees with what it states as paid (engine/domain/paymentHistory.ts
 * invoiceStatusOf; docs/invoices.md "Paid, partly paid, overpaid").
 */
import { describe, expect, it } from 'vitest';
import { invoiceStatusOf } from '../../engine/domain/paymentHistory';

describe('invoiceStatusOf', () => {
  it("keeps the order system's code where it sends no paid amount", () => {
    for (const code of ['A', 'T', 'O', 'U'] as const) expect(invoiceStatusOf(code, 120.92, null)).toBe(code);
  });

  it('follows the paid amount: all of it (or more) paid, a part, nothing', () => {
    expect(invoiceStatusOf('A', 120.92, 50)).toBe('T');
    expect(invoiceStatusOf('O', 120.92, 120.92)).toBe('A');
    expect(invoiceStatusOf('T', 120.92, 130)).toBe('A');
    expect(invoiceStatusOf('A', 120.92, 0)).toBe('O');
    expect(invoiceStatusOf('U', 120.92, 0)).toBe('U');
    // To the cent: 0.1 + 0.2 paid of 0.3 is all of it.
    expect(invoiceStatusOf('T', 0.3, 0.1 + 0.2)).toBe('A');
  });

  it('counts a credit note’s refund the same way, by its size', () => {
    expect(invoiceStatusOf('O', -30, -30)).toBe('A');
    expect(invoiceStatusOf('A', -30, -10)).toBe('T');
    expect(invoiceStatusOf('A', -30, 0)).toBe('O');
  });

  it('leaves an invoice of nothing as the order system says', () => {
    expect(invoiceStatusOf('A', 0, 0)).toBe('A');
  });
});
