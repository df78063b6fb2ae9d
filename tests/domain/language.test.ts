import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acceptedLanguages,
  chooseLocale,
  langParam,
  localeFromLangParam,
  localizedDetails,
  localizedRow,
  offeredLocale,
  settingIn,
  wordsIn,
} from '../../engine/domain/language';
import { addressLinesIn, countryName } from '../../engine/domain/countryNames';
import { asSentence } from '../../engine/domain/sentences';

const technikwelt = { locales: ['de-DE', 'en-GB'], defaultLocale: 'de-DE' };
const gartenfreunde = { locales: ['en-GB', 'de-DE'], defaultLocale: 'en-GB' };
const stadtkurier = { locales: ['de-DE'], defaultLocale: 'de-DE' };

describe('the language of a screen and of the answers to it: one rule', () => {
  it('takes the first wish the tenant offers, by language, else the default', () => {
    expect(chooseLocale(technikwelt, ['en'])).toBe('en-GB');
    expect(chooseLocale(technikwelt, ['en-US'])).toBe('en-GB');
    expect(chooseLocale(technikwelt, [undefined, null, 'fr', 'en-GB'])).toBe('en-GB');
    expect(chooseLocale(technikwelt, ['fr-FR'])).toBe('de-DE');
    expect(chooseLocale(gartenfreunde, [])).toBe('en-GB');
    expect(chooseLocale(gartenfreunde, ['de'])).toBe('de-DE');
  });

  it('keeps a tenant of one language in it, whatever is asked for', () => {
    expect(chooseLocale(stadtkurier, ['en', 'en-GB'])).toBe('de-DE');
    expect(offeredLocale(stadtkurier.locales, 'en-GB')).toBeUndefined();
  });

  it('reads Accept-Language the way browsers write it: by weight, without refused languages', () => {
    expect(acceptedLanguages('en-GB')).toEqual(['en-GB']);
    expect(acceptedLanguages('de-DE,de;q=0.9,en;q=0.8')).toEqual(['de-DE', 'de', 'en']);
    expect(acceptedLanguages('en;q=0.5, de;q=0.9')).toEqual(['de', 'en']);
    expect(acceptedLanguages('de;q=0, en')).toEqual(['en']);
    expect(acceptedLanguages('*')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(chooseLocale(technikwelt, acceptedLanguages('fr-FR,fr;q=0.9,en;q=0.8'))).toBe('en-GB');
  });

  it('maps the short `lang` of a link and back', () => {
    expect(localeFromLangParam('de')).toBe('de-DE');
    expect(localeFromLangParam('en')).toBe('en-GB');
    expect(localeFromLangParam('en-GB')).toBe('en-GB');
    expect(localeFromLangParam(null)).toBeUndefined();
    expect(langParam('de-DE')).toBe('de');
    expect(langParam('en-GB')).toBe('en');
  });

  it('always answers a language the tenant offers (property)', () => {
    const tag = fc.oneof(
      fc.constantFrom('de', 'en', 'de-DE', 'en-GB', 'en-US', 'fr', 'DE-de', ''),
      fc.string(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(technikwelt, gartenfreunde, stadtkurier),
        fc.array(fc.option(tag)),
        (tenant, wishes) => {
          expect(tenant.locales).toContain(chooseLocale(tenant, wishes));
        },
      ),
    );
  });
});

describe('the order system’s words in a language', () => {
  it('gives words stored per locale in the language asked for, else British English, else any', () => {
    const words = { 'de-DE': 'Angebote per Post', 'en-GB': 'Offers by post' };
    expect(wordsIn(words, 'de-DE')).toBe('Angebote per Post');
    expect(wordsIn(words, 'en-GB')).toBe('Offers by post');
    expect(wordsIn(words, 'en-US')).toBe('Offers by post');
    expect(wordsIn(words, 'fr-FR')).toBe('Offers by post');
    expect(wordsIn({ 'de-DE': 'Nur Deutsch' }, 'en-GB')).toBe('Nur Deutsch');
    expect(wordsIn({ 'de-DE': 'Leer', 'en-GB': '' }, 'en-GB')).toBe('Leer');
    expect(wordsIn(undefined, 'en-GB')).toBeUndefined();
  });

  it('lays a stored value’s translation over its words, and a row’s translations column over its columns', () => {
    const details = {
      displayName: 'Technikwelt Digital – Digital-Zugang',
      mixTypeDetails: { mixTypeDesc: 'Digital-Zugang', pdfDownload: false },
      translations: {
        'en-GB': {
          displayName: 'Technikwelt Digital – Online access',
          mixTypeDetails: { mixTypeDesc: 'Online access' },
        },
      },
    };
    expect(localizedDetails(details, 'en-GB')).toEqual({
      displayName: 'Technikwelt Digital – Online access',
      mixTypeDetails: { mixTypeDesc: 'Online access', pdfDownload: false },
    });
    expect(localizedDetails(details, 'en-US').displayName).toBe('Technikwelt Digital – Online access');
    expect(localizedDetails(details, 'de-DE').displayName).toBe('Technikwelt Digital – Digital-Zugang');
    const pending = {
      id: 'P1',
      title: 'Technikwelt Magazin – Probeabo 4 Wochen',
      translations: { 'en-GB': { title: 'Technikwelt Magazin – 4-week trial' } },
    };
    expect(localizedRow(pending, 'en-GB')).toEqual({ id: 'P1', title: 'Technikwelt Magazin – 4-week trial' });
    expect(localizedRow({ ...pending, translations: null }, 'en-GB')).toEqual({
      id: 'P1',
      title: 'Technikwelt Magazin – Probeabo 4 Wochen',
    });
  });

  it('takes a tenant setting given once or per locale', () => {
    expect(settingIn('https://x.example/a.png', 'en-GB')).toBe('https://x.example/a.png');
    expect(
      settingIn(
        { 'de-DE': 'https://x.example/auftrag.png', 'en-GB': 'https://x.example/order.png' },
        'en-GB',
      ),
    ).toBe('https://x.example/order.png');
    expect(settingIn({ 'de-DE': 'https://x.example/auftrag.png' }, 'en-GB')).toBe(
      'https://x.example/auftrag.png',
    );
    expect(settingIn(undefined, 'de-DE')).toBeUndefined();
  });
});

describe('asSentence', () => {
  it('ends a text as a sentence unless it ends so already', () => {
    expect(asSentence('Outside our delivery area')).toBe('Outside our delivery area.');
    expect(asSentence(' Outside our delivery area.  ')).toBe('Outside our delivery area.');
    expect(asSentence('Not possible!')).toBe('Not possible!');
    expect(asSentence('Warum?')).toBe('Warum?');
    expect(asSentence('Siehe „Bedingungen.“')).toBe('Siehe „Bedingungen.“');
    expect(asSentence('(see the terms.)')).toBe('(see the terms.)');
    expect(asSentence('')).toBe('');
  });
});

describe('countryName', () => {
  it('names a country in the language asked for, and keeps a code the runtime cannot name', () => {
    expect(countryName('DE', 'de-DE')).toBe('Deutschland');
    expect(countryName('DE', 'en-GB')).toBe('Germany');
    expect(countryName('GB', 'de-DE')).toBe('Vereinigtes Königreich');
    // Not a region code at all: Intl.DisplayNames throws, the code is shown as it is.
    expect(countryName('not a code', 'en-GB')).toBe('not a code');
  });
});

describe('addressLinesIn', () => {
  it("names a line that is only a country in the text's language, and leaves every other line", () => {
    const lines = ['Hafenstraße 7', '20457 Hamburg', 'Deutschland'];
    expect(addressLinesIn(lines, 'en-GB')).toEqual(['Hafenstraße 7', '20457 Hamburg', 'Germany']);
    expect(addressLinesIn(lines, 'de-DE')).toEqual(lines);
    expect(addressLinesIn(['1 Fleet Street', 'London EC4Y 1AA', 'United Kingdom'], 'de-DE')).toEqual([
      '1 Fleet Street',
      'London EC4Y 1AA',
      'Vereinigtes Königreich',
    ]);
    // By its code, in any case and spacing; a country outside the given ones stays as written.
    expect(addressLinesIn([' de '], 'en-GB')).toEqual(['Germany']);
    expect(addressLinesIn(['Spanien'], 'en-GB')).toEqual(['Spanien']);
    expect(addressLinesIn(['Spanien'], 'en-GB', ['ES'])).toEqual(['Spain']);
  });
});
