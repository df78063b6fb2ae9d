import { describe, expect, it } from 'vitest';
import { ApiError } from '../../engine/domain/apiError';
import { isDeadLinkAnswer } from '../../engine/domain/deadLink';

describe('a dead link (engine/domain/deadLink.ts isDeadLinkAnswer)', () => {
  it('is a token the server does not know, or one cut short: the screen says the link is invalid', () => {
    expect(isDeadLinkAnswer(new ApiError(404, 'not_found', 'gone'))).toBe(true);
    expect(isDeadLinkAnswer(new ApiError(401, 'invalid_token', 'no'))).toBe(true);
    const cutShort = new ApiError(400, 'validation_failed', 'bad', [
      { field: '/token', message: 'must NOT have fewer than 20 characters' },
    ]);
    expect(isDeadLinkAnswer(cutShort)).toBe(true);
  });

  it('is not any other failure, which may pass when tried again', () => {
    expect(isDeadLinkAnswer(new ApiError(500, 'internal', 'oops'))).toBe(false);
    expect(isDeadLinkAnswer(new ApiError(429, 'rate_limited', 'wait'))).toBe(false);
    expect(
      isDeadLinkAnswer(new ApiError(400, 'validation_failed', 'bad', [{ field: '/locale', message: 'x' }])),
    ).toBe(false);
    expect(isDeadLinkAnswer(new Error('network'))).toBe(false);
  });
});
