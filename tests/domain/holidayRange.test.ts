import { describe, expect, it } from 'vitest';
import {
  defaultHolidayRange,
  holidayAddressErrors,
  holidayIssueSpan,
  holidaySubmitBlock,
  issueSpanInsideDates,
  issuesInsideDates,
} from '../../engine/domain/holidayService';

const today = '2026-11-22';

describe('holiday setup form (account-flows.md §5, §8, §9)', () => {
  it('opens with four weeks from the earliest start, shorter when the type allows less, a download at most a month', () => {
    expect(defaultHolidayRange('break', '2026-11-23', 8)).toEqual({
      dateFrom: '2026-11-23',
      dateTo: '2026-12-20',
    });
    expect(defaultHolidayRange('redirect', '2026-11-23', 2)).toEqual({
      dateFrom: '2026-11-23',
      dateTo: '2026-12-06',
    });
    expect(defaultHolidayRange('download', '2027-02-01', 8).dateTo).toBe('2027-02-28');
  });

  it('names the first and last issue still to come, leaving out issues already dispatched', () => {
    const issues = [
      {
        issue: 'i1',
        issueNumber: '47/2026',
        dateOfFirstSale: '2026-11-23',
        dateOfFirstShipping: '2026-11-21',
        shipped: true,
      },
      {
        issue: 'i2',
        issueNumber: '48/2026',
        dateOfFirstSale: '2026-11-30',
        dateOfFirstShipping: '2026-11-28',
        shipped: false,
      },
      {
        issue: 'i3',
        issueNumber: null,
        dateOfFirstSale: '2026-12-07',
        dateOfFirstShipping: '2026-12-05',
        shipped: false,
      },
    ];
    expect(holidayIssueSpan(issues, today)).toEqual({ issueNumberFrom: '48/2026', issueNumberTo: 'i3' });
    expect(holidayIssueSpan([], today)).toEqual({ issueNumberFrom: null, issueNumberTo: null });
    // Without the server's flag the first shipping day decides.
    expect(
      holidayIssueSpan(
        [{ issueNumber: '1', dateOfFirstSale: '2026-11-23', dateOfFirstShipping: today }],
        today,
      ).issueNumberFrom,
    ).toBeNull();
  });

  it('a pause of 16.11.–16.12.2026 pauses the issue of 5.12., not 1/2027 (its issues lie inside its dates)', () => {
    // A monthly title on sale on the 5th.
    const monthly = [
      { issue: '2026011', issueNumber: '11/2026', dateOfFirstSale: '2026-11-05' },
      { issue: '2026012', issueNumber: '12/2026', dateOfFirstSale: '2026-12-05' },
      { issue: '2027001', issueNumber: '1/2027', dateOfFirstSale: '2027-01-05' },
    ];
    const pause = { dateFrom: '2026-11-16', dateTo: '2026-12-16' };
    expect(issuesInsideDates(monthly, pause).map((i) => i.issueNumber)).toEqual(['12/2026']);
    expect(issueSpanInsideDates(monthly, pause)).toEqual({
      issueNumberFrom: '12/2026',
      issueNumberTo: '12/2026',
    });
    // Both days count; an open end runs on; dates without an issue name none.
    expect(issueSpanInsideDates(monthly, { dateFrom: '2026-11-05', dateTo: '2027-01-05' })).toEqual({
      issueNumberFrom: '11/2026',
      issueNumberTo: '1/2027',
    });
    expect(issueSpanInsideDates(monthly, { dateFrom: '2026-12-01', dateTo: null })).toEqual({
      issueNumberFrom: '12/2026',
      issueNumberTo: '1/2027',
    });
    expect(issueSpanInsideDates(monthly, { dateFrom: '2026-12-06', dateTo: '2027-01-04' })).toEqual({
      issueNumberFrom: null,
      issueNumberTo: null,
    });
    // The span a request names: inside the dates and still to come, whatever else was loaded.
    expect(holidayIssueSpan(monthly, '2026-11-25', pause)).toEqual({
      issueNumberFrom: '12/2026',
      issueNumberTo: '12/2026',
    });
  });

  it("blocks the submit by the server's shipped flag where the issue has one", () => {
    expect(
      holidaySubmitBlock(
        [{ dateOfFirstSale: '2026-11-30', dateOfFirstShipping: '2026-11-28', shipped: true }],
        today,
      ),
    ).toBe('already_shipped');
    expect(
      holidaySubmitBlock(
        [{ dateOfFirstSale: '2026-11-22', dateOfFirstShipping: '2026-11-20', shipped: false }],
        today,
      ),
    ).toBeNull();
  });
});

describe('holiday address (account-flows.md §5 "redirect requires a valid address")', () => {
  const ctx = { addressLines: false, companySalutations: ['0003'], emailRequired: false, today };
  const address = {
    street: 'Strandweg',
    streetNumber: '3',
    zipcode: '18225',
    city: 'Kühlungsborn',
    countryCode: 'DE',
  };

  it('needs a last name or a company besides the address rules', () => {
    expect(holidayAddressErrors(address, ctx)).toEqual([{ field: 'lastName1', code: 'required' }]);
    expect(holidayAddressErrors({ ...address, lastName1: 'Schmidt' }, ctx)).toEqual([]);
    expect(holidayAddressErrors({ ...address, company1: 'Hotel Seeblick' }, ctx)).toEqual([]);
    expect(holidayAddressErrors({ ...address, lastName1: 'Schmidt', zipcode: '' }, ctx)).toEqual([
      { field: 'zipcode', code: 'required' },
    ]);
  });
});
