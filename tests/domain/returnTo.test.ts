import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_SIGN_IN_DESTINATION,
  destinationAfterSignIn,
  destinationOf,
  isSamePortalPath,
  loginSearchFor,
  requestedDestination,
  RETURN_TO_MAX_LENGTH,
} from '../../engine/domain/returnTo';

describe('returnTo accepts only same-portal paths', () => {
  it.each([
    '/orders',
    '/subscriptions/101-4000000001',
    '/subscriptions/101-4000000001?view=x',
    '/cancellation?returnTo=contact',
    '/faq#renewal',
    '/subscriptions/a%20b',
    '/tenants-news',
    '/Shop',
  ])('accepts %s', (path) => {
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
    ["another tenant's portal on the shared host", '/t/other-tenant/subscriptions/1'],
    ["another tenant's portal, in capitals", '/T/other-tenant/orders'],
    ["another tenant's portal, encoded", '/%74/other-tenant/orders'],
    ['the prefix alone', '/t'],
    ["the server's API", '/api/subscriptions'],
    ['the sign-on start', '/sso/authorize?returnTo=/orders'],
    ['the login itself', '/login?p=abc'],
  ])('refuses %s', (_label, path) => {
    expect(isSamePortalPath(path)).toBe(false);
  });

  it('refuses what is not a string', () => {
    expect(isSamePortalPath(undefined)).toBe(false);
    expect(isSamePortalPath(['/orders'])).toBe(false);
  });
});

describe('a page hands its path and query to login (portal-core.md §2 access rules)', () => {
  it('keeps the query of a deep link on the login URL and its path as returnTo', () => {
    const search = loginSearchFor('/subscriptions/2014516490774', '?view=x');
    expect(search).toBe(`?view=x&returnTo=${encodeURIComponent('/subscriptions/2014516490774')}`);
    expect(requestedDestination(search)).toBe('/subscriptions/2014516490774?view=x');
    // Orders, where a sign-in goes anyway: the query alone, which the login hands back to it.
    expect(loginSearchFor('/orders', '?filter=active')).toBe('?filter=active');
    expect(destinationAfterSignIn('?filter=active')).toBe('/orders?filter=active');
  });

  it('leaves p and lang on top for the login screen and out of the destination', () => {
    const search = new URLSearchParams(loginSearchFor('/subscriptions/1', '?p=tok&lang=en&view=x'));
    expect(search.get('p')).toBe('tok');
    expect(search.get('lang')).toBe('en');
    expect(search.get('view')).toBe('x');
    expect(search.get('returnTo')).toBe('/subscriptions/1');
    expect(requestedDestination(`?${search}`)).toBe('/subscriptions/1?view=x');
  });

  it("keeps a page's key the login reads itself inside returnTo, the others on top", () => {
    const search = new URLSearchParams(loginSearchFor('/subscriptions/1', '?deleted=1&code=7&view=x'));
    expect([...search.keys()]).toEqual(['view', 'returnTo']);
    expect(search.get('returnTo')).toBe('/subscriptions/1?deleted=1&code=7');
    expect(requestedDestination(`?${search}`)).toBe('/subscriptions/1?deleted=1&code=7&view=x');
    // The deleted account's notice of the login page is not carried to the page after a sign-in.
    expect(destinationAfterSignIn('?deleted=1')).toBe('/orders');
  });

  it("keeps a page's own returnTo inside the destination instead of mixing it with the login's", () => {
    const search = new URLSearchParams(loginSearchFor('/subscriptions/1/renewal', '?returnTo=renewal'));
    expect(search.get('returnTo')).toBe('/subscriptions/1/renewal?returnTo=renewal');
    expect(requestedDestination(`?${search}`)).toBe('/subscriptions/1/renewal?returnTo=renewal');
  });

  it('needs no returnTo for orders, where a sign-in goes anyway', () => {
    expect(loginSearchFor('/orders', '')).toBe('');
    expect(loginSearchFor('/orders', '?lang=de')).toBe('?lang=de');
  });

  it('drops a path that is no destination', () => {
    expect(loginSearchFor('/login', '?forgot=1')).toBe('');
    expect(destinationOf('//evil.example', '')).toBeUndefined();
  });
});

/** A path with its query's entries sorted: the same page whatever order its keys come in. */
function sortedQuery(path: string): string {
  const at = path.indexOf('?');
  if (at < 0) return path;
  const entries = [...new URLSearchParams(path.slice(at))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path.slice(0, at)}?${new URLSearchParams(entries)}`;
}

describe('where a sign-in goes (portal-core.md §2 "Login")', () => {
  it('goes to the subscription of subscriptionId first', () => {
    expect(destinationAfterSignIn('?p=abc&subscriptionId=123-4')).toBe('/subscriptions/123-4');
    expect(destinationAfterSignIn(`?subscriptionId=123-4&returnTo=${encodeURIComponent('/faq')}`)).toBe(
      '/subscriptions/123-4',
    );
  });

  it('goes to the requested path with its query, without the p token or the lang', () => {
    const login = `?p=abc&lang=de&returnTo=${encodeURIComponent('/subscriptions/2014516490774?view=x')}`;
    expect(destinationAfterSignIn(login)).toBe('/subscriptions/2014516490774?view=x');
  });

  it("keeps a page's keys left on the login URL (§2: login keeps the query)", () => {
    expect(destinationAfterSignIn('?p=abc&category=x')).toBe('/orders?category=x');
    expect(destinationAfterSignIn(`?returnTo=${encodeURIComponent('/link-subscription')}&category=x`)).toBe(
      '/link-subscription?category=x',
    );
    expect(
      destinationAfterSignIn(`?returnTo=${encodeURIComponent('/faq?category=a#top')}&category=b&view=y`),
    ).toBe('/faq?category=a&view=y#top');
  });

  it("drops the login's own keys: tokens, the OAuth answer, the dialogs", () => {
    expect(
      destinationAfterSignIn('?code=c&state=s&iss=i&session_state=x&confirm=t&reset=r&forgot=1&lang=en'),
    ).toBe(DEFAULT_SIGN_IN_DESTINATION);
  });

  it('takes the page an answer names (OAuth state, partner link) over the login URL', () => {
    expect(destinationAfterSignIn('?code=c&state=s', '/subscriptions/9?view=x')).toBe(
      '/subscriptions/9?view=x',
    );
    expect(destinationAfterSignIn(`?p=abc&returnTo=${encodeURIComponent('/faq')}`, '/bulk-renewal')).toBe(
      '/bulk-renewal',
    );
  });

  it('falls back to orders for anything that is no same-portal path', () => {
    for (const bad of [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      '/t/other/orders',
      '/login',
      '/%2F%2Fevil.example',
    ]) {
      expect(destinationAfterSignIn(`?returnTo=${encodeURIComponent(bad)}`, bad)).toBe('/orders');
    }
    expect(destinationAfterSignIn('?subscriptionId=..')).toBe('/orders');
  });

  it('goes to orders when nothing was requested', () => {
    expect(destinationAfterSignIn('?p=abc')).toBe('/orders');
    expect(destinationAfterSignIn('')).toBe('/orders');
    expect(requestedDestination('?lang=en')).toBeUndefined();
  });

  it('encodes a subscription id so it stays one path segment', () => {
    expect(destinationAfterSignIn('?subscriptionId=a%2Fb')).toBe('/subscriptions/a%2Fb');
  });

  it('takes a deep link there and back again: whatever a page is, login leads back to it or to orders', () => {
    const segment = fc.stringMatching(/^[\w.~%-]{1,12}$/);
    const page = fc.tuple(
      fc.array(segment, { minLength: 1, maxLength: 4 }),
      fc.dictionary(
        // Keys of the page's own, and keys the login screen reads itself.
        fc.oneof(fc.stringMatching(/^[a-z]{1,6}$/), fc.constantFrom('code', 'deleted', 'returnTo', 'forgot')),
        fc.string({ maxLength: 8 }),
        { maxKeys: 3 },
      ),
    );
    fc.assert(
      fc.property(page, ([segments, params]) => {
        const pathname = `/${segments.join('/')}`;
        const search = `?${new URLSearchParams(params)}`;
        const destination = destinationAfterSignIn(loginSearchFor(pathname, search));
        expect(isSamePortalPath(destination)).toBe(true);
        const expected = destinationOf(pathname, search);
        // The same page and keys; keys the login reads itself come back first.
        expect(sortedQuery(destination)).toBe(sortedQuery(expected ?? DEFAULT_SIGN_IN_DESTINATION));
      }),
    );
  });
});
