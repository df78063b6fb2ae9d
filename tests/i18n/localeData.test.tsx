/**
 * What a locale brings besides its texts is data (engine/domain/locales.ts LOCALE_TABLE; the seed's
 * packs; the studio's words), never a locale ternary: a pseudo-locale (en-XA, tests/i18n/pseudoLocale.ts)
 * added as one table entry gets its own flag, delivery countries and loyalty texts, the studio and
 * the demo data fall back to British English, and de-DE and en-GB keep what they had.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { Flag } from '../../engine/app/shell/LanguageToggle';
import { supportedCountries } from '../../engine/domain/addressRules';
import { formatDate } from '../../engine/domain/dates';
import { languageName } from '../../engine/domain/language';
import { FALLBACK_LOCALE, LOCALE_TABLE, LOCALES } from '../../engine/domain/locales';
import { loyaltyText } from '../../server/loyalty-programme/loyaltyService';
import { isDemoLocale, localePack } from '../../server/seed/locales';
import { STUDIO_LANGS, studioLang } from '../../studio/texts';
import { PSEUDO_LOCALE } from './pseudoLocale';

vi.mock('../../engine/domain/locales', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../engine/domain/locales')>();
  // The one entry a locale adds to the code: its data beside its name.
  const table = {
    ...actual.LOCALE_TABLE,
    'en-XA': {
      name: 'Ëñĝļîšĥ',
      flag: { viewBox: '0 0 3 2', shapes: [{ tag: 'rect', props: { width: 3, height: 2, fill: '#0A0' } }] },
      deliveryCountries: ['XA', 'XB'],
      day: { pattern: 'YYYY/MMM/DD', months: ['Ĵåñ', 'Ƒéƀ'] },
    },
  } as typeof actual.LOCALE_TABLE;
  return {
    ...actual,
    LOCALE_TABLE: table,
    LOCALES: Object.keys(table),
    localeData: (locale: string) => actual.localeData(locale, table),
  };
});

const XA = PSEUDO_LOCALE;

describe('locale data in a pseudo-locale', () => {
  it("shows the locale's own flag, and none for a string that is no locale", () => {
    expect(renderToStaticMarkup(<Flag locale={XA} />)).toBe(
      '<svg class="flag" viewBox="0 0 3 2" width="20" height="12" aria-hidden="true"><rect width="3" height="2" fill="#0A0"></rect></svg>',
    );
    expect(renderToStaticMarkup(<Flag locale="fr-FR" />)).toBe('');
  });

  it("names the locale's language on the flag button as its data does, and a string that is no locale by itself", () => {
    expect(languageName(XA)).toBe('Ëñĝļîšĥ');
    expect(languageName('fr-FR')).toBe('fr-FR');
  });

  it("writes a day by the locale's own pattern", () => {
    expect(formatDate('2027-02-01', XA)).toBe('2027/Ƒéƀ/01');
  });

  it("limits delivery addresses to the locale's delivery area", () => {
    expect(supportedCountries(XA, ['WE'])).toEqual(['XA', 'XB']);
    expect(supportedCountries(XA, ['RE'])).toEqual(expect.arrayContaining(['XA', 'XB', 'DE', 'GB']));
  });

  it('answers loyalty texts in every locale of the list', () => {
    expect(LOCALES).toContain(XA);
    expect(loyaltyText({ 'de-DE': 'Gold', 'en-GB': 'Gold', [XA]: '[Ĝöļđ]', xx: 'not a locale' })).toEqual({
      'de-DE': 'Gold',
      'en-GB': 'Gold',
      [XA]: '[Ĝöļđ]',
    });
    expect(loyaltyText(null)).toBeNull();
  });

  it('seeds British demo data and shows the British studio where the locale has none of its own', () => {
    expect(isDemoLocale(FALLBACK_LOCALE)).toBe(true);
    expect(localePack(XA)).toBe(localePack(FALLBACK_LOCALE));
    expect(studioLang(`?lang=${XA}`)).toBe(FALLBACK_LOCALE);
    for (const lang of STUDIO_LANGS) expect(studioLang(`?lang=${lang}`)).toBe(lang);
  });
});

describe('de-DE and en-GB keep their data', () => {
  it('draws the German and the British flag as before', () => {
    expect(renderToStaticMarkup(<Flag locale="de-DE" />)).toBe(
      '<svg class="flag" viewBox="0 0 5 3" width="20" height="12" aria-hidden="true"><rect width="5" height="1" y="0" fill="#000"></rect><rect width="5" height="1" y="1" fill="#D00"></rect><rect width="5" height="1" y="2" fill="#FFCE00"></rect></svg>',
    );
    expect(renderToStaticMarkup(<Flag locale="en-GB" />)).toBe(
      '<svg class="flag" viewBox="0 0 60 30" width="20" height="12" aria-hidden="true"><rect width="60" height="30" fill="#012169"></rect><path d="M0,0 L60,30 M60,0 L0,30" stroke="#fff" stroke-width="6"></path><path d="M0,0 L60,30 M60,0 L0,30" stroke="#C8102E" stroke-width="2"></path><path d="M30,0 V30 M0,15 H60" stroke="#fff" stroke-width="10"></path><path d="M30,0 V30 M0,15 H60" stroke="#C8102E" stroke-width="6"></path></svg>',
    );
  });

  it('keeps their delivery areas, demo currencies and studio words', () => {
    expect(supportedCountries('de-DE', ['WE'])).toEqual([
      'DE',
      'AT',
      'CH',
      'LU',
      'NL',
      'BE',
      'DK',
      'FR',
      'IT',
      'PL',
    ]);
    expect(supportedCountries('en-GB', ['WE'])).toEqual(['GB', 'IE']);
    expect(LOCALE_TABLE['en-GB'].deliveryCountries).toEqual(['GB', 'IE']);
    expect([localePack('de-DE').currency, localePack('en-GB').currency]).toEqual(['EUR', 'GBP']);
    expect([localePack('de-DE').countryCode, localePack('en-GB').countryCode]).toEqual(['DE', 'GB']);
    expect(studioLang('?lang=de-DE')).toBe('de-DE');
    expect(studioLang('')).toBe('en-GB');
  });
});
