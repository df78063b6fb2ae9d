import { describe, expect, it } from 'vitest';
import { ApiError } from '../../engine/domain/apiError';
import { retryAfterSecondsOf, waitInEnglish, waitOf } from '../../engine/domain/retryAfter';

describe('when a refused caller may try again', () => {
  it('reads the seconds of a 429 and of nothing else', () => {
    expect(retryAfterSecondsOf(new ApiError(429, 'rate_limited', '', { retryAfterSeconds: 840 }))).toBe(840);
    expect(retryAfterSecondsOf(new ApiError(429, 'rate_limited', ''))).toBeUndefined();
    expect(
      retryAfterSecondsOf(new ApiError(400, 'validation_failed', '', { retryAfterSeconds: 840 })),
    ).toBeUndefined();
    expect(retryAfterSecondsOf(new Error('network'))).toBeUndefined();
  });

  it.each([
    [1, { value: 1, unit: 'minute' }],
    [60, { value: 1, unit: 'minute' }],
    [61, { value: 2, unit: 'minute' }],
    [14 * 60 + 5, { value: 15, unit: 'minute' }],
    [90 * 60, { value: 90, unit: 'minute' }],
    [90 * 60 + 1, { value: 2, unit: 'hour' }],
    [23 * 3600 + 10, { value: 24, unit: 'hour' }],
  ])('rounds %i seconds up to %j, so nobody comes back too early', (seconds, wait) => {
    expect(waitOf(seconds)).toEqual(wait);
  });

  it('says the wait in English for the server message', () => {
    expect(waitInEnglish(30)).toBe('1 minute');
    expect(waitInEnglish(840)).toBe('14 minutes');
    expect(waitInEnglish(5 * 3600)).toBe('5 hours');
  });
});
