import { describe, expect, it } from 'vitest';
import { complaintReady, complaintStart, eligibleComplaintIssues } from '../../engine/domain/complaint';

describe('complaint rules (account-flows.md §4, §5, §8)', () => {
  it('makes only the newest N delivered issues eligible; none when the mix type allows 0', () => {
    const delivered = [
      { issue: 'a', dateOfFirstSale: '2026-10-01' },
      { issue: 'c', dateOfFirstSale: '2026-11-01' },
      { issue: 'b', dateOfFirstSale: '2026-10-15' },
    ];
    expect(eligibleComplaintIssues(delivered, 2).map((i) => i.issue)).toEqual(['c', 'b']);
    expect(eligibleComplaintIssues(delivered, 0)).toEqual([]);
  });

  it('starts with the no-issues message, the conflict at the maximum, the contact pointer when every issue has a complaint, else the form', () => {
    expect(complaintStart({ issues: [], maxReached: false })).toBe('no_issues');
    expect(complaintStart({ issues: [{ complained: false }], maxReached: true })).toBe('max_reached');
    expect(complaintStart({ issues: [{ complained: true }], maxReached: false })).toBe('no_eligible');
    expect(complaintStart({ issues: [{ complained: true }, { complained: false }], maxReached: false })).toBe('form');
  });

  it('keeps submit disabled until issue, reason and compensation are chosen', () => {
    expect(complaintReady({ issue: 'a', reason: 'damaged', option: null })).toBe(false);
    expect(complaintReady({ issue: '', reason: 'damaged', option: 'replacement' })).toBe(false);
    expect(complaintReady({ issue: 'a', reason: 'damaged', option: 'replacement' })).toBe(true);
  });
});
