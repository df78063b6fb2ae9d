import { describe, expect, it } from 'vitest';
import { addressWithoutLang, initialLocale, rememberLocale } from '../../engine/core/i18n';
import type { PortalConfig } from '../../engine/domain/portalConfig';

const technikwelt = {
  tenant: { id: 'technikwelt', locales: ['de-DE', 'en-GB'], defaultLocale: 'de-DE' },
} as unknown as PortalConfig;

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  } as Storage;
}

const at = (href: string) => {
  const url = new URL(href, 'https://portal.example');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};

describe('the chosen language wins over a ?lang left in the address', () => {
  it('takes `lang` out of the address once it is applied, keeping everything else', () => {
    expect(addressWithoutLang(at('/t/technikwelt/orders?lang=en'))).toBe('/t/technikwelt/orders');
    expect(addressWithoutLang(at('/t/technikwelt/opt-in-widget?provider=messe&lang=en#top'))).toBe(
      '/t/technikwelt/opt-in-widget?provider=messe#top',
    );
    expect(addressWithoutLang(at('/t/technikwelt/login?p=abc&lang=de&subscriptionId=S1'))).toBe(
      '/t/technikwelt/login?p=abc&subscriptionId=S1',
    );
    expect(addressWithoutLang(at('/t/technikwelt/orders'))).toBeUndefined();
  });

  it('starts a reload in the language chosen with the flag after a link’s ?lang was applied', () => {
    const storage = memoryStorage();
    // A sign-in link in English: applied, remembered, taken out of the address.
    const first = '/t/technikwelt/orders?lang=en';
    expect(initialLocale(technikwelt, at(first).search, storage)).toBe('en-GB');
    rememberLocale('technikwelt', 'en-GB', storage);
    const reloaded = addressWithoutLang(at(first))!;
    // The visitor picks German with the flag; the reload reads the address without `lang`.
    rememberLocale('technikwelt', 'de-DE', storage);
    expect(initialLocale(technikwelt, at(reloaded).search, storage)).toBe('de-DE');
    // A new link with ?lang is a new wish and is followed.
    expect(initialLocale(technikwelt, '?lang=en', storage)).toBe('en-GB');
  });
});
