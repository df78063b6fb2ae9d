import { describe, expect, it } from 'vitest';
import { compensationOptionsFor, eligibleComplaintIssues } from '../../engine/domain/complaint';

describe('complaint rules (account-flows.md §4, §5, §9)', () => {
  it('takes only the first N delivered issues, none when N is 0', () => {
    expect(eligibleComplaintIssues(['12', '11', '10', '9'], 3)).toEqual(['12', '11', '10']);
    expect(eligibleComplaintIssues(['12', '11'], 0)).toEqual([]);
  });

  it('offers a download only with an e-paper and a replacement only for recent issues', () => {
    const all = ['download', 'complimentary_issue', 'replacement'] as const;
    expect(
      compensationOptionsFor(
        all,
        { dateOfFirstSale: '2026-11-10' },
        { hasEpaper: true, today: '2026-11-22' },
      ),
    ).toEqual(all);
    expect(
      compensationOptionsFor(
        all,
        { dateOfFirstSale: '2026-09-10' },
        { hasEpaper: false, today: '2026-11-22' },
      ),
    ).toEqual(['complimentary_issue']);
    expect(
      compensationOptionsFor(
        ['replacement'],
        { dateOfFirstSale: '2026-09-10' },
        { hasEpaper: true, today: '2026-11-22' },
      ),
    ).toEqual([]);
    // The latest delivered issue can always be replaced, however long ago a monthly title appeared.
    expect(
      compensationOptionsFor(
        ['replacement'],
        { dateOfFirstSale: '2026-09-10', latest: true },
        { hasEpaper: true, today: '2026-11-22' },
      ),
    ).toEqual(['replacement']);
  });
});
