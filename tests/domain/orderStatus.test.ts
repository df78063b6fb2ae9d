import { describe, expect, it } from 'vitest';
import {
  isActive,
  isActiveNotCancelled,
  isStrictActive,
  matchesFilter,
  statusTone,
  ORDER_STATUSES,
} from '../../engine/domain/orderStatus';

// portal-core.md §4 "Order status": the groupings as a table, one row per status.
const table = [
  { status: 'A', active: true, activeNotCancelled: true, strictActive: true, tone: 'success' },
  { status: 'AK', active: true, activeNotCancelled: false, strictActive: true, tone: 'warning' },
  { status: 'I', active: false, activeNotCancelled: false, strictActive: false, tone: 'error' },
  { status: 'IZ', active: true, activeNotCancelled: true, strictActive: false, tone: 'success' },
  { status: 'IU', active: false, activeNotCancelled: false, strictActive: false, tone: 'warning' },
] as const;

describe('order status groupings', () => {
  it('covers every status of the spec', () => {
    expect(table.map((row) => row.status)).toEqual([...ORDER_STATUSES]);
  });

  it.each(table)('groups $status as in §4', (row) => {
    expect(isActive(row.status)).toBe(row.active);
    expect(isActiveNotCancelled(row.status)).toBe(row.activeNotCancelled);
    expect(isStrictActive(row.status)).toBe(row.strictActive);
    expect(statusTone(row.status)).toBe(row.tone);
  });

  it('filters the orders page by whether a subscription has ended: a halted (IU) one is still active', () => {
    expect(ORDER_STATUSES.filter((s) => matchesFilter(s, 'active'))).toEqual(['A', 'AK', 'IZ', 'IU']);
    expect(ORDER_STATUSES.filter((s) => matchesFilter(s, 'inactive'))).toEqual(['I']);
    expect(ORDER_STATUSES.filter((s) => matchesFilter(s, 'all'))).toHaveLength(5);
  });
});
