/**
 * The server's texts (server/texts/<locale>/<area>.json, read by server/texts/serverTexts.ts): every
 * locale of the portal has every area with the same keys and the same placeholders, no text is
 * empty, and a key a locale misses reads as British English, never as the key.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../engine/domain/locales';
import { readLocaleTexts, SERVER_TEXTS_DIR, textsIn } from '../../../server/texts/serverTexts';
import { ROOT_DIR } from '../../../cli/paths';

const tables = Object.fromEntries(
  LOCALES.map((locale) => [locale, readLocaleTexts(path.join(SERVER_TEXTS_DIR, locale))]),
);
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the server texts', () => {
  it('has a folder for each locale of the schema and no other', () => {
    const folders = readdirSync(SERVER_TEXTS_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...LOCALES].sort());
  });

  it('has every area, key and placeholder in every locale, and no empty text', () => {
    const [first, ...others] = LOCALES;
    for (const locale of others) {
      expect(Object.keys(tables[locale]).sort(), locale).toEqual(Object.keys(tables[first]).sort());
      for (const [area, table] of Object.entries(tables[first])) {
        const other = tables[locale][area];
        expect(Object.keys(other).sort(), `${locale}/${area}`).toEqual(Object.keys(table).sort());
        for (const [key, text] of Object.entries(table))
          expect(placeholders(other[key]), `${locale}/${area} ${key}`).toEqual(placeholders(text));
      }
    }
    for (const locale of LOCALES)
      for (const [area, table] of Object.entries(tables[locale]))
        for (const [key, text] of Object.entries(table))
          expect(text.trim(), `${locale}/${area} ${key}`).not.toBe('');
  });

  it('fills placeholders, leaves nothing for a missing value and falls back to British English', () => {
    expect(textsIn('de-DE', 'auth')('magicLink.subject', { tenant: 'Stadtkurier' })).toBe(
      'Ihr Anmeldelink für Stadtkurier',
    );
    expect(textsIn('de-DE', 'account')('word.from')).toBe('ab dem ');
    expect(textsIn('fr-FR', 'documents')('page', { page: 1, pages: 2 })).toBe('Page 1 of 2');
  });
});

describe("a mix type's name", () => {
  // One name per format: the subscription name and the mails the server writes say what the
  // screens say (engine/account/texts.json `account.mixType.*`).
  const screens = JSON.parse(
    readFileSync(path.join(ROOT_DIR, 'engine', 'account', 'texts.json'), 'utf8'),
  ) as Record<string, Record<string, string>>;

  it.each(LOCALES)('is the same on the screens and in the server texts (%s)', (locale) => {
    const onScreens = Object.entries(screens[locale])
      .filter(([key]) => key.startsWith('account.mixType.'))
      .map(([key, text]) => [key.slice('account.'.length), text]);
    expect(onScreens.length).toBeGreaterThan(0);
    expect(Object.fromEntries(onScreens)).toEqual(tables[locale].subscription);
  });
});
