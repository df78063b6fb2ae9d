/**
 * The figures an invoice adds to the payment history's gross amount (server/documents/invoiceFigures.ts):
 * the VAT split in whole cents and the service period of a billing cycle.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VAT_RATE_PERCENT,
  servicePeriod,
  splitGross,
  vatRateFor,
} from '../../../server/documents/invoiceFigures';

describe('splitGross', () => {
  it.each([
    [107, 7, 100, 7],
    [9.99, 7, 9.34, 0.65], // 9.3364 → 9.34
    [0.01, 7, 0.01, 0],
    [119, 19, 100, 19],
    [59.5, 0, 59.5, 0],
    [10, 5.5, 9.48, 0.52], // 9.4787 → 9.48
    [-21.4, 7, -20, -1.4], // a credit note splits the same way
  ])('splits %s gross at %s %% into net %s and VAT %s', (gross, rate, net, vat) => {
    const split = splitGross(gross, rate);
    expect(split).toEqual({ ratePercent: rate, category: rate > 0 ? 'S' : 'Z', net, vat, gross });
  });

  it('always adds net and VAT up to the gross that was paid, to the cent', () => {
    for (let cents = 1; cents <= 5000; cents += 7) {
      const { net, vat } = splitGross(cents / 100, 7);
      expect(Math.round(net * 100) + Math.round(vat * 100)).toBe(cents);
    }
  });
});

describe('vatRateFor', () => {
  it("takes the publication's own rate, else the tenant's, else 7 %", () => {
    const config = { vatRatePercent: 0, vatRatePercentByPublication: { TWD: 19 } };
    expect(vatRateFor(config, 'TWD')).toBe(19);
    expect(vatRateFor(config, 'TWM')).toBe(0);
    expect(vatRateFor(undefined, 'TWM')).toBe(DEFAULT_VAT_RATE_PERCENT);
    expect(DEFAULT_VAT_RATE_PERCENT).toBe(7);
  });
});

describe('servicePeriod', () => {
  it('covers one billing cycle from the payment date', () => {
    expect(servicePeriod('2026-01-01', '01', null)).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(servicePeriod('2026-01-01', '03', null)).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(servicePeriod('2026-07-15', '06', null)).toEqual({ from: '2026-07-15', to: '2027-01-14' });
    expect(servicePeriod('2026-03-01', '12', null)).toEqual({ from: '2026-03-01', to: '2027-02-28' });
  });

  it('does not roll over a short month', () => {
    expect(servicePeriod('2026-01-31', '01', null)).toEqual({ from: '2026-01-31', to: '2026-02-27' });
  });

  it('ends with the subscription when that comes first', () => {
    expect(servicePeriod('2026-01-01', '12', '2026-06-30')).toEqual({ from: '2026-01-01', to: '2026-06-30' });
  });

  it('has no end when the billing cycle is unknown', () => {
    expect(servicePeriod('2026-01-01', null, null)).toEqual({ from: '2026-01-01', to: null });
    expect(servicePeriod('2026-01-01', '99', null)).toEqual({ from: '2026-01-01', to: null });
  });
});
