/**
 * What `portal import` prints of a refused import (docs/going-live.md "Going live with your order
 * system"): every problem, but one repeated on many lines of a file once, naming where else it is.
 */
import { describe, expect, it } from 'vitest';
import { formatProblemList, type ImportProblem } from '../../../server/operator/import/importRecords';

const problem = (line: number, message: string, extra: Partial<ImportProblem> = {}): ImportProblem => ({
  file: 'business-partners.ndjson',
  line,
  pointer: '/bpNumber',
  message,
  ...extra,
});

describe('formatProblemList', () => {
  it('prints one problem repeated on many lines once, with the first lines it is on and how many more', () => {
    const same = 'must be 10 digits';
    expect(
      formatProblemList([
        ...Array.from({ length: 8 }, (_, i) => problem(i + 1, same)),
        problem(4, 'is listed twice', { pointer: '/roles/0' }),
      ]),
    ).toEqual([
      'business-partners.ndjson:1 /bpNumber must be 10 digits (the same on lines 2, 3, 4, 5, 6 and 2 more)',
      'business-partners.ndjson:4 /roles/0 is listed twice',
    ]);
    expect(formatProblemList([problem(1, same), problem(9, same)])).toEqual([
      'business-partners.ndjson:1 /bpNumber must be 10 digits (the same on line 9)',
    ]);
  });

  it('keeps problems apart that differ in file, words or the record they name', () => {
    const deletion = (key: string) =>
      problem(0, 'cannot be deleted: the portal has changes of it waiting', { key, pointer: '' });
    expect(
      formatProblemList([
        problem(1, 'must be 10 digits'),
        problem(1, 'must be 10 digits', { file: 'subscriptions.ndjson' }),
        problem(2, '"12" is not 10 digits'),
        deletion('0001'),
        deletion('0002'),
      ]),
    ).toHaveLength(5);
  });
});
