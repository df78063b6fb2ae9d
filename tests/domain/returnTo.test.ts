import { describe, expect, it } from 'vitest';
import { isSamePortalPath, RETURN_TO_MAX_LENGTH } from '../../engine/domain/returnTo';

describe('returnTo accepts only same-portal paths (issue 10, finding 3)', () => {
  it.each(['/orders', '/subscriptions/101-4000000001', '/cancellation?returnTo=contact', '/faq#renewal', '/subscriptions/a%20b'])('accepts %s', (path) => {
    expect(isSamePortalPath(path)).toBe(true);
  });

  it.each([
    ['a protocol-relative host', '//evil.example'],
    ['a backslash host', '/\\evil.example'],
    ['a backslash anywhere', '/orders\\..\\x'],
    ['an encoded protocol-relative host', '/%2F%2Fevil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['a scheme', 'https://evil.example/'],
    ['javascript', 'javascript:alert(1)'],
    ['a relative path', 'orders'],
    ['a tab', '/\t/evil.example'],
    ['a newline', '/orders\n'],
    ['a NUL', '/orders\u0000'],
    ['a dot segment', '/../admin'],
    ['a malformed escape', '/%E0%A4%A'],
    ['an empty string', ''],
    ['too long', `/${'a'.repeat(RETURN_TO_MAX_LENGTH)}`],
  ])('refuses %s', (_label, path) => {
    expect(isSamePortalPath(path)).toBe(false);
  });

  it('refuses what is not a string', () => {
    expect(isSamePortalPath(undefined)).toBe(false);
    expect(isSamePortalPath(['/orders'])).toBe(false);
  });
});
