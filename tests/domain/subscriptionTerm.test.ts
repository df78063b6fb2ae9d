import { describe, expect, it } from 'vitest';
import { addressErrors } from '../../engine/domain/addressRules';
import {
  defaultHolidayRange,
  holidayEndLimit,
  holidayPossibleWithinTerm,
  holidayRangeErrors,
} from '../../engine/domain/holidayService';
import {
  AFTER_TERM_END,
  capToTerm,
  issuesWithinTerm,
  nextBillingDay,
  lastDayOfTerm,
  windowWithinTerm,
  withinTerm,
} from '../../engine/domain/subscriptionTerm';

// Cancelled "zum 05.01.2027 (Ausgabe 1/2027)", the subscription ends on that issue's on-sale day.
const end = '2027-01-05';
const today = '2026-11-25';

describe('the subscription term (portal-core.md §3 validToOnSaleDate, §4 AK)', () => {
  it('ends on validToOnSaleDate, the on-sale day of its last issue; without one it runs on', () => {
    expect(lastDayOfTerm({ validToOnSaleDate: end })).toBe(end);
    expect(lastDayOfTerm({ validToOnSaleDate: '2027-01-05T00:00:00Z' })).toBe(end);
    expect(lastDayOfTerm({ validToOnSaleDate: null })).toBeNull();
    expect(lastDayOfTerm({})).toBeNull();
  });

  it('keeps the last day and nothing after it', () => {
    expect(withinTerm('2027-01-04', end)).toBe(true);
    expect(withinTerm(end, end)).toBe(true);
    expect(withinTerm('2027-01-06', end)).toBe(false);
    expect(withinTerm('2099-12-31', null)).toBe(true);
    expect(capToTerm('2027-02-01', end)).toBe(end);
    expect(capToTerm('2026-12-01', end)).toBe('2026-12-01');
    expect(capToTerm('2027-02-01', null)).toBe('2027-02-01');
  });

  it('offers the last issue (1/2027) but not the ones after it (2/2027, 3/2027)', () => {
    const issues = [
      { issueNumber: '12/2026', dateOfFirstSale: '2026-12-05' },
      { issueNumber: '1/2027', dateOfFirstSale: '2027-01-05' },
      { issueNumber: '2/2027', dateOfFirstSale: '2027-02-05' },
      { issueNumber: '3/2027', dateOfFirstSale: '2027-03-05' },
    ];
    expect(issuesWithinTerm(issues, end).map((i) => i.issueNumber)).toEqual(['12/2026', '1/2027']);
    expect(issuesWithinTerm(issues, null)).toHaveLength(4);
  });

  it('cuts a window at the last day and drops one that begins after it', () => {
    expect(windowWithinTerm({ dateFrom: today, dateTo: '2027-03-31' }, end)).toEqual({
      dateFrom: today,
      dateTo: end,
    });
    expect(windowWithinTerm({ dateFrom: today, dateTo: '2026-12-25' }, end)).toEqual({
      dateFrom: today,
      dateTo: '2026-12-25',
    });
    expect(windowWithinTerm({ dateFrom: end, dateTo: '2027-02-05' }, end)).toEqual({
      dateFrom: end,
      dateTo: end,
    });
    expect(windowWithinTerm({ dateFrom: '2027-01-06', dateTo: '2027-02-05' }, end)).toBeNull();
  });
});

describe('dates offered for a subscription stop at its end', () => {
  it('holiday service: the picker ends on the last day, a range past it is refused, none begins after it', () => {
    expect(holidayEndLimit('break', '2026-12-20', 6, end)).toBe(end);
    expect(holidayEndLimit('break', '2026-12-01', 2, end)).toBe('2026-12-14');
    expect(defaultHolidayRange('break', '2026-12-20', 6, end)).toEqual({
      dateFrom: '2026-12-20',
      dateTo: end,
    });
    expect(
      holidayRangeErrors(
        { type: 'break', dateFrom: '2026-12-20', dateTo: end },
        { today, weeks: 6, termEnd: end },
      ),
    ).toEqual([]);
    expect(
      holidayRangeErrors(
        { type: 'break', dateFrom: '2026-12-20', dateTo: '2027-01-06' },
        { today, weeks: 6, termEnd: end },
      ),
    ).toEqual([{ field: 'dateTo', code: AFTER_TERM_END }]);
    expect(
      holidayRangeErrors(
        { type: 'break', dateFrom: '2027-01-10', dateTo: '2027-01-20' },
        { today, weeks: 6, termEnd: end },
      ),
    ).toEqual([
      { field: 'dateFrom', code: AFTER_TERM_END },
      { field: 'dateTo', code: AFTER_TERM_END },
    ]);
    // Without an end the limits of §5 alone apply.
    expect(
      holidayRangeErrors(
        { type: 'break', dateFrom: '2026-12-20', dateTo: '2027-01-20' },
        { today, weeks: 6, termEnd: null },
      ),
    ).toEqual([]);
    expect(holidayPossibleWithinTerm('2026-11-26', end)).toBe(true);
    expect(holidayPossibleWithinTerm('2026-11-26', '2026-11-25')).toBe(false);
  });

  it('address change: a dated change may begin on the last day, not after it', () => {
    const ctx = { addressLines: false, companySalutations: [], emailRequired: false, today, termEnd: end };
    const address = {
      lastName1: 'Schmidt',
      street: 'Hauptstraße',
      streetNumber: '1',
      zipcode: '10115',
      city: 'Berlin',
      countryCode: 'DE',
    };
    expect(addressErrors({ ...address, validFrom: end }, ctx)).toEqual([]);
    expect(addressErrors({ ...address, validFrom: '2027-01-06' }, ctx)).toEqual([
      { field: 'validFrom', code: AFTER_TERM_END },
    ]);
    expect(addressErrors({ ...address, validFrom: '2027-01-06' }, { ...ctx, termEnd: null })).toEqual([]);
    // Tomorrow at the earliest still comes first.
    expect(addressErrors({ ...address, validFrom: today }, ctx)).toEqual([
      { field: 'validFrom', code: 'too_early' },
    ]);
  });
});

describe('nextBillingDay', () => {
  const yearly = { validFromOnSaleDate: '2025-02-05', billingFrequency: '12' };
  it('is the first day of the next period, counted from the first day in the billing frequency', () => {
    expect(nextBillingDay(yearly, '2026-11-30')).toBe('2027-02-05');
    expect(nextBillingDay(yearly, '2027-02-05')).toBe('2028-02-05');
    expect(nextBillingDay({ validFromOnSaleDate: '2025-11-24', billingFrequency: '01' }, '2026-11-30')).toBe(
      '2026-12-24',
    );
    expect(nextBillingDay({ validFromOnSaleDate: '2026-01-31', billingFrequency: '01' }, '2026-02-10')).toBe(
      '2026-02-28',
    );
    expect(nextBillingDay({ validFromOnSaleDate: '2026-01-31', billingFrequency: '01' }, '2026-03-01')).toBe(
      '2026-03-31',
    );
    expect(nextBillingDay({ validFromOnSaleDate: '2026-08-15', billingFrequency: '03' }, '2026-11-30')).toBe(
      '2027-02-15',
    );
  });

  it('is the first day for a subscription not begun, and unknown without a first day or frequency', () => {
    expect(nextBillingDay(yearly, '2025-01-01')).toBe('2025-02-05');
    expect(
      nextBillingDay({ validFromOnSaleDate: null, billingFrequency: '12' }, '2026-11-30'),
    ).toBeUndefined();
    expect(
      nextBillingDay({ validFromOnSaleDate: '2025-02-05', billingFrequency: null }, '2026-11-30'),
    ).toBeUndefined();
    expect(
      nextBillingDay({ validFromOnSaleDate: '2025-02-05', billingFrequency: '00' }, '2026-11-30'),
    ).toBeUndefined();
  });
});
