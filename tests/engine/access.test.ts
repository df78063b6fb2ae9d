import { describe, expect, it } from 'vitest';
import { localeFromLangParam } from '../../engine/core/i18n';
import { languageName, nextLocale } from '../../engine/domain/language';

// Where login sends the user (portal-core.md §2 "Login") is engine/domain/returnTo.ts: tests/domain/returnTo.test.ts.

describe('the lang query parameter (portal-core.md §1)', () => {
  it('maps de and en to the two locales and passes other values through', () => {
    expect(localeFromLangParam('de')).toBe('de-DE');
    expect(localeFromLangParam('en')).toBe('en-GB');
    expect(localeFromLangParam('fr-FR')).toBe('fr-FR');
    expect(localeFromLangParam(null)).toBeUndefined();
  });

  it("switches to the tenant's next locale, named in its own language", () => {
    expect(nextLocale(['de-DE', 'en-GB'], 'de-DE')).toBe('en-GB');
    expect(nextLocale(['de-DE', 'en-GB'], 'en-GB')).toBe('de-DE');
    expect(nextLocale(['en-GB', 'de-DE', 'en-XA'], 'de-DE')).toBe('en-XA');
    expect(nextLocale(['en-GB', 'de-DE', 'en-XA'], 'en-XA')).toBe('en-GB');
    expect(languageName('de-DE')).toBe('Deutsch');
    expect(languageName('en-GB')).toBe('English');
  });
});
