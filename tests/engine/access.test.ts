import { describe, expect, it } from 'vitest';
import { pathAfterLogin } from '../../engine/core/access';
import { localeFromLangParam, otherLocale } from '../../engine/core/i18n';

describe('where login sends the user (portal-core.md §2 "Login")', () => {
  it('goes to the subscription of subscriptionId first', () => {
    expect(pathAfterLogin('?p=abc&subscriptionId=123-4', '/orders')).toBe('/subscriptions/123-4');
  });

  it('goes back to the requested path without the p token, keeping the rest of the query', () => {
    expect(pathAfterLogin('?p=abc&category=x', '/link-subscription')).toBe('/link-subscription?category=x');
  });

  it('drops the lang of a sign-in link, which the portal applied and remembered at start', () => {
    expect(pathAfterLogin('?p=abc&lang=de', '/link-subscription')).toBe('/link-subscription');
  });

  it('goes to orders when nothing was requested', () => {
    expect(pathAfterLogin('?p=abc', undefined)).toBe('/orders');
    expect(pathAfterLogin('', '/login')).toBe('/orders');
  });
});

describe('the lang query parameter (portal-core.md §1)', () => {
  it('maps de and en to the two locales and passes other values through', () => {
    expect(localeFromLangParam('de')).toBe('de-DE');
    expect(localeFromLangParam('en')).toBe('en-GB');
    expect(localeFromLangParam('fr-FR')).toBe('fr-FR');
    expect(localeFromLangParam(null)).toBeUndefined();
  });

  it('toggles between German and British English', () => {
    expect(otherLocale('de-DE')).toBe('en-GB');
    expect(otherLocale('en-GB')).toBe('de-DE');
    expect(otherLocale('fr-FR')).toBe('de-DE');
  });
});
