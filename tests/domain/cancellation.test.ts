import { describe, expect, it } from 'vitest';
import {
  cancellationCheckErrors,
  cancellationDateLabel,
  cancellationStart,
  cancelFormErrors,
  preselectedCancellationIssue,
  preselectedCancelReason,
} from '../../engine/domain/cancellation';

const issue = (issueNumber: string | null, dateOfFirstSale: string | null) => ({
  issueNumber,
  dateOfFirstSale,
});
const fields = (errors: Array<{ field: string; code: string }>) => errors.map((e) => `${e.field}:${e.code}`);

describe('cancellation start (account-flows.md §4, §8)', () => {
  it('shows the success notice for a cancelled or inactive subscription, the refusal for an externally managed one, else the form', () => {
    expect(cancellationStart({ orderStatus: 'AK', salesDocumentType: 'ZABO' })).toBe('already_cancelled');
    expect(cancellationStart({ orderStatus: 'I', salesDocumentType: 'WBZA' })).toBe('already_cancelled');
    expect(cancellationStart({ orderStatus: 'A', salesDocumentType: 'WBZA' })).toBe('externally_managed');
    expect(cancellationStart({ orderStatus: 'A', salesDocumentType: 'ZABO' })).toBe('form');
  });
});

describe('cancellation date labels by the tenant date style (§4, §9)', () => {
  it('calls a date without an issue number the earliest possible date, with its day where known, whatever the style', () => {
    for (const style of ['date', 'issue_number', 'issue_number_date'] as const) {
      expect(cancellationDateLabel(issue(null, '2026-03-01'), style)).toEqual({
        kind: 'earliest',
        date: '2026-03-01',
      });
      expect(cancellationDateLabel(issue(null, null), style)).toEqual({ kind: 'earliest' });
    }
  });

  it('shows the date, the issue number, or both', () => {
    const march = issue('2026/03', '2026-03-01');
    expect(cancellationDateLabel(march, 'date')).toEqual({ kind: 'date', date: '2026-03-01' });
    expect(cancellationDateLabel(march, 'issue_number')).toEqual({ kind: 'issue', issueNumber: '2026/03' });
    expect(cancellationDateLabel(march, 'issue_number_date')).toEqual({
      kind: 'issue_date',
      issueNumber: '2026/03',
      date: '2026-03-01',
    });
  });

  it('falls back to the issue number when the date is unknown', () => {
    expect(cancellationDateLabel(issue('2026/03', null), 'date')).toEqual({
      kind: 'issue',
      issueNumber: '2026/03',
    });
    expect(cancellationDateLabel(issue('2026/03', null), 'issue_number_date')).toEqual({
      kind: 'issue',
      issueNumber: '2026/03',
    });
  });
});

describe('preselections (§4)', () => {
  const issues = [issue('2026/03', '2026-03-01'), issue(null, null), issue('2026/04', '2026-04-01')];

  it('preselects the first date when cancellable regularly', () => {
    expect(preselectedCancellationIssue(issues, true)).toBe(issues[0]);
  });

  it('fixes the date to the earliest possible one when not cancellable regularly', () => {
    expect(preselectedCancellationIssue(issues, false)).toBe(issues[1]);
    expect(preselectedCancellationIssue([issues[2]], false)).toBe(issues[2]);
    expect(preselectedCancellationIssue([], false)).toBeNull();
  });

  it('preselects the configured default reason only when the subscription offers it', () => {
    const reasons = [{ cancelReason: 'PREIS' }, { cancelReason: 'UMZUG' }];
    expect(preselectedCancelReason(reasons, 'PREIS')).toBe('PREIS');
    expect(preselectedCancelReason(reasons, 'ZEIT')).toBe('');
    expect(preselectedCancelReason(reasons, undefined)).toBe('');
  });
});

describe('cancel form rules (§5)', () => {
  it('requires a date when cancellable and a reason in words when not', () => {
    expect(fields(cancelFormErrors({ reason: 'PREIS', issue: null }, true))).toEqual(['issue:required']);
    expect(fields(cancelFormErrors({ reason: 'PREIS', issue: null, reasonText: ' ' }, false))).toEqual([
      'reasonText:required',
    ]);
    expect(
      fields(cancelFormErrors({ reason: '', issue: issue(null, null), feedback: 'x'.repeat(256) }, true)),
    ).toEqual(['reason:required', 'feedback:too_long']);
  });

  it('checks the anonymous form: e-mail, order number and a zip code of at most 10 characters', () => {
    expect(fields(cancellationCheckErrors({ email: '', orderNumber: '', zipcode: '' }))).toEqual([
      'email:required',
      'orderNumber:required',
      'zipcode:required',
    ]);
    expect(
      fields(cancellationCheckErrors({ email: 'anna@', orderNumber: '12ab', zipcode: '12345678901' })),
    ).toEqual(['email:invalid', 'orderNumber:invalid', 'zipcode:too_long']);
    expect(
      cancellationCheckErrors({ email: 'anna@example.com', orderNumber: '4123456789', zipcode: '10969' }),
    ).toEqual([]);
  });
});
