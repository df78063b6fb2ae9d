import { describe, expect, it } from 'vitest';
import { complaintReady, complaintStart } from '../../engine/domain/complaint';

describe('complaint page rules (account-flows.md §4, §5, §8)', () => {
  it('starts with the no-issues message, the conflict at the maximum, the contact pointer when every issue has a complaint, else the form', () => {
    expect(complaintStart({ issues: [], maxReached: false })).toBe('no_issues');
    expect(complaintStart({ issues: [{ complained: false }], maxReached: true })).toBe('max_reached');
    expect(complaintStart({ issues: [{ complained: true }], maxReached: false })).toBe('no_eligible');
    expect(complaintStart({ issues: [{ complained: true }, { complained: false }], maxReached: false })).toBe(
      'form',
    );
  });

  it('keeps submit disabled until issue, reason and compensation are chosen', () => {
    expect(complaintReady({ issue: 'a', reason: 'damaged', option: null })).toBe(false);
    expect(complaintReady({ issue: '', reason: 'damaged', option: 'replacement' })).toBe(false);
    expect(complaintReady({ issue: 'a', reason: 'damaged', option: 'replacement' })).toBe(true);
  });
});
