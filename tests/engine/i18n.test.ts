import { describe, expect, it } from 'vitest';
import {
  initialLocale,
  keepLocaleCookie,
  langParam,
  localeStorageKey,
  offeredLocale,
  rememberLocale,
} from '../../engine/core/i18n';
import type { PortalConfig } from '../../engine/domain/portalConfig';

const configOf = (id: string, locales: Array<'de-DE' | 'en-GB'>, defaultLocale: 'de-DE' | 'en-GB') =>
  ({
    tenant: { id, locales, defaultLocale },
    texts: { 'de-DE': {}, 'en-GB': {} },
    basePath: '/',
  }) as unknown as PortalConfig;

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  } as Storage;
}

const stadtkurier = configOf('stadtkurier', ['de-DE'], 'de-DE');
const technikwelt = configOf('technikwelt', ['de-DE', 'en-GB'], 'de-DE');

describe('the language a portal starts in (portal-core.md §1)', () => {
  it('keeps a German-only tenant German whatever ?lang asks for', () => {
    expect(initialLocale(stadtkurier, '?lang=en', memoryStorage())).toBe('de-DE');
    expect(initialLocale(stadtkurier, '?lang=en-GB', memoryStorage())).toBe('de-DE');
    const storage = memoryStorage();
    rememberLocale('stadtkurier', 'en-GB', storage);
    expect(initialLocale(stadtkurier, '', storage)).toBe('de-DE');
  });

  it('follows ?lang on a bilingual tenant, by language when the region differs', () => {
    expect(initialLocale(technikwelt, '?lang=en', memoryStorage())).toBe('en-GB');
    expect(initialLocale(technikwelt, '?lang=en-US', memoryStorage())).toBe('en-GB');
    expect(initialLocale(technikwelt, '?lang=fr', memoryStorage())).toBe('de-DE');
  });

  it('remembers the choice per tenant, so it survives a sign-in in a new tab', () => {
    const storage = memoryStorage();
    rememberLocale('technikwelt', 'en-GB', storage);
    expect(initialLocale(technikwelt, '', storage)).toBe('en-GB');
    // Another tenant on the same origin keeps its own default.
    const other = memoryStorage();
    rememberLocale('technikwelt', 'de-DE', other);
    expect(initialLocale(configOf('gartenfreunde', ['en-GB', 'de-DE'], 'en-GB'), '', other)).toBe('en-GB');
    expect(storage.getItem(localeStorageKey('technikwelt'))).toBe('en-GB');
    // A link's ?lang wins over the remembered choice.
    expect(initialLocale(technikwelt, '?lang=de', storage)).toBe('de-DE');
  });

  it("keeps the shown language in a cookie for the tenant's path, so the server preloads its texts", () => {
    const page = { cookie: '' };
    keepLocaleCookie('/t/technikwelt/', 'en-GB', page);
    expect(page.cookie).toBe('portal_lang=en-GB; path=/t/technikwelt/; max-age=31536000; samesite=lax');
    const refusing = {
      set cookie(_value: string) {
        throw new Error('SecurityError');
      },
    };
    expect(() => keepLocaleCookie('/', 'de-DE', refusing as Document)).not.toThrow();
  });

  it('matches a wish against the offered locales only', () => {
    expect(offeredLocale(['de-DE', 'en-GB'], 'EN-gb')).toBe('en-GB');
    expect(offeredLocale(['de-DE'], 'en-GB')).toBeUndefined();
    expect(offeredLocale(['de-DE'], undefined)).toBeUndefined();
    expect(langParam('de-DE')).toBe('de');
    expect(langParam('en-GB')).toBe('en');
  });
});

describe('the translator (engine/core/translation.tsx)', () => {
  it('picks plural keys by count as i18next did, falls back to the fallback locale, then to the key', async () => {
    const { createTranslator } = await import('../../engine/core/translation');
    const translator = createTranslator({
      locale: 'de-DE',
      fallbackLocale: 'en-GB',
      texts: {
        'de-DE': {
          'x.months_one': 'seit {{count}} Monat',
          'x.months_other': 'seit {{count}} Monaten',
          'x.hello': 'Hallo {{name}}',
        },
        'en-GB': { 'x.only': 'only English' },
      },
    });
    expect(translator.t('x.months', { count: 1 })).toBe('seit 1 Monat');
    expect(translator.t('x.months', { count: 0 })).toBe('seit 0 Monaten');
    expect(translator.t('x.months', { count: 7 })).toBe('seit 7 Monaten');
    expect(translator.t('x.hello', { name: 'Zoë' })).toBe('Hallo Zoë');
    expect(translator.t('x.only')).toBe('only English');
    expect(translator.t('x.missing')).toBe('x.missing');
    await translator.changeLanguage('en-GB');
    expect(translator.language).toBe('en-GB');
    expect(translator.t('x.only')).toBe('only English');
    expect(translator.t('x.hello', { name: 'Zoë' })).toBe('x.hello'); // never the other language's text
  });
});
