import { describe, expect, it } from 'vitest';
import {
  activePlannedService,
  canCancelHolidayService,
  holidayRangeErrors,
  holidaySubmitBlock,
  holidayTypeOfQuery,
  latestHolidayEnd,
  maxDurationWeeks,
} from '../../engine/domain/holidayService';

const today = '2026-11-22';

describe('holiday service rules (account-flows.md §4, §5, §9)', () => {
  it('reads the query service case-insensitively', () => {
    expect(holidayTypeOfQuery('Break')).toBe('break');
    expect(holidayTypeOfQuery('redirect')).toBe('redirect');
    expect(holidayTypeOfQuery('Holiday')).toBeUndefined();
  });

  it('takes the maximum duration of the publication, then the type, then the default', () => {
    const config = {
      defaultMaxDuration: 6,
      maxDurations: [
        { type: 'break' as const, weeks: 8 },
        { type: 'break' as const, weeks: 2, publications: ['SKS'] },
      ],
    };
    expect(maxDurationWeeks(config, 'break', 'SKS')).toBe(2);
    expect(maxDurationWeeks(config, 'break', 'SKT')).toBe(8);
    expect(maxDurationWeeks(config, 'redirect', 'SKT')).toBe(6);
    expect(maxDurationWeeks(undefined, 'redirect', 'SKT')).toBe(4);
  });

  it('names the earlier of the two limits when an end is past both: the longest service or the term', () => {
    const past = { type: 'break' as const, dateFrom: '2026-11-23', dateTo: '2027-03-01' };
    // Four weeks end on 21 December, before the term: the service is too long.
    expect(holidayRangeErrors(past, { today, weeks: 4, termEnd: '2027-02-03' })).toEqual([
      { field: 'dateTo', code: 'too_long' },
    ]);
    // The term ends before four weeks are up: the subscription's end is the limit.
    expect(holidayRangeErrors(past, { today, weeks: 4, termEnd: '2026-12-10' })).toEqual([
      { field: 'dateTo', code: 'after_term_end' },
    ]);
    expect(
      holidayRangeErrors({ ...past, dateTo: '2026-12-15' }, { today, weeks: 4, termEnd: '2026-12-10' }),
    ).toEqual([{ field: 'dateTo', code: 'after_term_end' }]);
  });

  it('starts tomorrow at the earliest and limits a download to one month', () => {
    expect(
      holidayRangeErrors({ type: 'break', dateFrom: today, dateTo: '2026-11-30' }, { today, weeks: 4 }),
    ).toEqual([{ field: 'dateFrom', code: 'too_early' }]);
    expect(
      holidayRangeErrors(
        { type: 'break', dateFrom: '2026-11-23', dateTo: '2026-12-20' },
        { today, weeks: 4 },
      ),
    ).toEqual([]);
    // Both days count: four weeks from a Monday end on the fourth Sunday, not on the fifth Monday.
    expect(
      holidayRangeErrors(
        { type: 'break', dateFrom: '2026-11-23', dateTo: '2026-12-21' },
        { today, weeks: 4 },
      ),
    ).toEqual([{ field: 'dateTo', code: 'too_long' }]);
    expect(latestHolidayEnd('download', '2026-11-23', 8)).toBe('2026-12-22');
    expect(latestHolidayEnd('break', '2026-11-23', 1)).toBe('2026-11-29');
    expect(latestHolidayEnd('download', '2027-01-31', 8)).toBe('2027-02-28');
    expect(latestHolidayEnd('download', '2027-01-28', 8)).toBe('2027-02-27');
    expect(latestHolidayEnd('download', '2027-03-01', 8)).toBe('2027-03-31');
    expect(latestHolidayEnd('download', '2028-01-30', 8)).toBe('2028-02-29');
    expect(
      holidayRangeErrors(
        { type: 'redirect', dateFrom: '2026-12-01', dateTo: '2026-11-30' },
        { today, weeks: 4 },
      ),
    ).toEqual([{ field: 'dateTo', code: 'before_start' }]);
    expect(holidayRangeErrors({ type: 'redirect' }, { today, weeks: 4 }).map((e) => e.code)).toEqual([
      'required',
      'required',
    ]);
  });

  it('blocks the submit without issues, or when every issue in the period has shipped', () => {
    expect(holidaySubmitBlock([], today)).toBe('no_issues');
    expect(
      holidaySubmitBlock([{ dateOfFirstSale: '2026-11-23', dateOfFirstShipping: '2026-11-21' }], today),
    ).toBe('already_shipped');
    expect(
      holidaySubmitBlock(
        [
          { dateOfFirstSale: '2026-11-23', dateOfFirstShipping: '2026-11-21' },
          { dateOfFirstSale: '2026-11-30' },
        ],
        today,
      ),
    ).toBeNull();
    // Two issues, both dispatched: nothing left to hold.
    expect(
      holidaySubmitBlock(
        [
          { dateOfFirstSale: '2026-11-20', dateOfFirstShipping: '2026-11-18' },
          { dateOfFirstSale: '2026-11-23', dateOfFirstShipping: '2026-11-21' },
        ],
        today,
      ),
    ).toBe('already_shipped');
  });

  it('shows redirect before break before download, and cancels each only where allowed', () => {
    expect(activePlannedService([{ type: 'download' }, { type: 'break' }])?.type).toBe('break');
    expect(
      canCancelHolidayService(
        { type: 'redirect', dateFrom: '2026-11-25', dateTo: '2026-12-05', firstIssueShipping: '2026-11-24' },
        today,
      ),
    ).toBe(true);
    expect(
      canCancelHolidayService(
        { type: 'redirect', dateFrom: '2026-11-25', dateTo: '2026-12-05', firstIssueShipping: today },
        today,
      ),
    ).toBe(false);
    expect(
      canCancelHolidayService(
        { type: 'break', dateFrom: '2026-11-20', dateTo: '2026-12-05', firstIssueShipping: null },
        today,
      ),
    ).toBe(false);
    expect(
      canCancelHolidayService(
        { type: 'break', dateFrom: '2026-11-30', dateTo: '2026-12-05', firstIssueShipping: null },
        today,
      ),
    ).toBe(true);
    expect(
      canCancelHolidayService(
        { type: 'download', dateFrom: '2026-11-30', dateTo: '2026-12-05', firstIssueShipping: null },
        today,
      ),
    ).toBe(false);
  });
});
