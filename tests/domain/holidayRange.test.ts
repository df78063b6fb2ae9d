import { describe, expect, it } from 'vitest';
import { defaultHolidayRange, holidayAddressErrors, holidayIssueSpan, holidaySubmitBlock } from '../../engine/domain/holidayService';

const today = '2026-11-22';

describe('holiday setup form (account-flows.md §5, §8, §9)', () => {
  it('opens with four weeks from the earliest start, shorter when the type allows less, a download at most a month', () => {
    expect(defaultHolidayRange('break', '2026-11-23', 8)).toEqual({ dateFrom: '2026-11-23', dateTo: '2026-12-21' });
    expect(defaultHolidayRange('redirect', '2026-11-23', 2)).toEqual({ dateFrom: '2026-11-23', dateTo: '2026-12-07' });
    expect(defaultHolidayRange('download', '2027-02-01', 8).dateTo).toBe('2027-03-01');
  });

  it('names the first and last issue still to come, leaving out issues already dispatched', () => {
    const issues = [
      { issue: 'i1', issueNumber: '47/2026', dateOfFirstSale: '2026-11-23', dateOfFirstShipping: '2026-11-21', shipped: true },
      { issue: 'i2', issueNumber: '48/2026', dateOfFirstSale: '2026-11-30', dateOfFirstShipping: '2026-11-28', shipped: false },
      { issue: 'i3', issueNumber: null, dateOfFirstSale: '2026-12-07', dateOfFirstShipping: '2026-12-05', shipped: false },
    ];
    expect(holidayIssueSpan(issues, today)).toEqual({ issueNumberFrom: '48/2026', issueNumberTo: 'i3' });
    expect(holidayIssueSpan([], today)).toEqual({ issueNumberFrom: null, issueNumberTo: null });
    // Without the server's flag the first shipping day decides.
    expect(holidayIssueSpan([{ issueNumber: '1', dateOfFirstSale: '2026-11-23', dateOfFirstShipping: today }], today).issueNumberFrom).toBeNull();
  });

  it("blocks the submit by the server's shipped flag where the issue has one", () => {
    expect(holidaySubmitBlock([{ dateOfFirstSale: '2026-11-30', dateOfFirstShipping: '2026-11-28', shipped: true }], today)).toBe('already_shipped');
    expect(holidaySubmitBlock([{ dateOfFirstSale: '2026-11-22', dateOfFirstShipping: '2026-11-20', shipped: false }], today)).toBeNull();
  });
});

describe('holiday address (account-flows.md §5 "redirect requires a valid address")', () => {
  const ctx = { addressLines: false, companySalutations: ['0003'], emailRequired: false, today };
  const address = { street: 'Strandweg', streetNumber: '3', zipcode: '18225', city: 'Kühlungsborn', countryCode: 'DE' };

  it('needs a last name or a company besides the address rules', () => {
    expect(holidayAddressErrors(address, ctx)).toEqual([{ field: 'lastName1', code: 'required' }]);
    expect(holidayAddressErrors({ ...address, lastName1: 'Schmidt' }, ctx)).toEqual([]);
    expect(holidayAddressErrors({ ...address, company1: 'Hotel Seeblick' }, ctx)).toEqual([]);
    expect(holidayAddressErrors({ ...address, lastName1: 'Schmidt', zipcode: '' }, ctx)).toEqual([{ field: 'zipcode', code: 'required' }]);
  });
});
