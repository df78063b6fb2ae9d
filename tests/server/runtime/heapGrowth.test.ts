/** The heap's growing factor (server/runtime/heapGrowth.ts): its variable read, odd values refused. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent } from '../../../server/runtime/heapGrowth';

describe('PORTAL_HEAP_GROWING_PERCENT', () => {
  it('is 50 when unset or empty, and a whole percentage from 0 (V8 decides) to 1000 when set', () => {
    expect(DEFAULT_HEAP_GROWING_PERCENT).toBe(50);
    expect(heapGrowingPercent(undefined)).toBe(50);
    expect(heapGrowingPercent(' ')).toBe(50);
    expect(heapGrowingPercent('0')).toBe(0);
    expect(heapGrowingPercent('100')).toBe(100);
  });

  it('refuses what is not a whole percentage, naming the variable', () => {
    for (const value of ['-5', '1.5', 'fast', '1001', '1e9'])
      expect(() => heapGrowingPercent(value)).toThrow(/PORTAL_HEAP_GROWING_PERCENT/);
  });
});
