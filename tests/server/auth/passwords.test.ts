import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../server/auth/passwords';
import { allowedForPartialLogin } from '../../../server/auth/authMiddleware';
import { hashToken, constantTimeEquals } from '../../../server/auth/tokens';

describe('password hashing', () => {
  it('stores scrypt parameters, a salt and the hash, never the password', async () => {
    const stored = await hashPassword('Lesen2026');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored).not.toContain('Lesen2026');
  });

  it('verifies the right password only, with a new salt every time', async () => {
    const a = await hashPassword('Lesen2026');
    const b = await hashPassword('Lesen2026');
    expect(a).not.toBe(b);
    expect(await verifyPassword('Lesen2026', a)).toBe(true);
    expect(await verifyPassword('lesen2026', a)).toBe(false);
    expect(await verifyPassword('Lesen2026', null)).toBe(false);
    expect(await verifyPassword('Lesen2026', 'plain')).toBe(false);
    // Four scrypt runs of 32 MiB each: on a busy machine they take longer than the 5 s default.
  }, 30_000);
});

describe('tokens', () => {
  it('are stored as SHA-256 hex and compared in constant time', () => {
    expect(hashToken('abc')).toMatch(/^[0-9a-f]{64}$/);
    expect(constantTimeEquals('abc', 'abc')).toBe(true);
    expect(constantTimeEquals('abc', 'abd')).toBe(false);
    expect(constantTimeEquals('abc', 'abcd')).toBe(false);
  });
});

describe('what a partial login may call (§4 "logged in only")', () => {
  it.each([
    ['/subscriptions', true],
    ['/subscriptions/123-1', true],
    ['/subscriptions/123-1/payment-history', true],
    ['/subscriptions/123-2', false],
    ['/purchase-orders', false],
    ['/logout', true],
  ])('%s → %s', (path, allowed) => expect(allowedForPartialLogin(path, '123-1')).toBe(allowed));
});
