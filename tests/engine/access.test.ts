import { describe, expect, it } from 'vitest';
import { localeFromLangParam, otherLocale } from '../../engine/core/i18n';

// Where login sends the user (portal-core.md §2 "Login") is engine/domain/returnTo.ts: tests/domain/returnTo.test.ts.

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
