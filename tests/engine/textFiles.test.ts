/**
 * A built page carries only the tenant's own texts and fetches the complete base texts of
 * the locale it shows from a shared, hashed file (engine/core/i18n.ts); pages made per request
 * (`portal dev`, the studio) carry the full tables and fetch nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../engine/core/i18n';
import type { PortalConfig } from '../../engine/domain/portalConfig';

const FILES: Record<string, Record<string, string>> = {
  'assets/texts.de-DE.aaaa1111.json': { 'shell.logout': 'Abmelden', 'shell.hello': 'Hallo {{name}}' },
  'assets/texts.en-GB.bbbb2222.json': { 'shell.logout': 'Log out', 'shell.hello': 'Hello {{name}}' },
};

function fakeFetch(files = FILES) {
  const fetch = vi.fn(async (url: string) =>
    url in files
      ? new Response(JSON.stringify(files[url]), { status: 200 })
      : new Response('{"error":{"code":"not_found"}}', { status: 404 }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const builtPage = (overrides: PortalConfig['texts'] = {}): PortalConfig =>
  ({
    tenant: { id: 'technikwelt', locales: ['de-DE', 'en-GB'], defaultLocale: 'de-DE' },
    texts: overrides,
    textFiles: { 'de-DE': 'assets/texts.de-DE.aaaa1111.json', 'en-GB': 'assets/texts.en-GB.bbbb2222.json' },
    basePath: '/t/technikwelt/',
  }) as unknown as PortalConfig;

afterEach(() => vi.unstubAllGlobals());

describe('the texts of a built page', () => {
  it("fetches the file of the locale shown before the first render, with the tenant's texts on top", async () => {
    const fetch = fakeFetch();
    const i18n = await createI18n(builtPage({ 'de-DE': { 'shell.logout': 'Tschüss' } }), 'de-DE');
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['assets/texts.de-DE.aaaa1111.json']);
    expect(i18n.t('shell.logout')).toBe('Tschüss');
    expect(i18n.t('shell.hello', { name: 'Zoë' })).toBe('Hallo Zoë');
  });

  it("fetches the other locale's file when the language changes, then switches, and only once", async () => {
    const fetch = fakeFetch();
    const i18n = await createI18n(builtPage({ 'en-GB': { 'shell.logout': 'Bye' } }), 'de-DE');
    const changes: string[] = [];
    i18n.on('languageChanged', (locale: string) => changes.push(`${locale}: ${i18n.t('shell.logout')}`));
    await i18n.changeLanguage('en-GB');
    expect(changes).toEqual(['en-GB: Bye']);
    expect(i18n.t('shell.hello', { name: 'Zoë' })).toBe('Hello Zoë');
    await i18n.changeLanguage('de-DE');
    await i18n.changeLanguage('en-GB');
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      'assets/texts.de-DE.aaaa1111.json',
      'assets/texts.en-GB.bbbb2222.json',
    ]);
    expect(i18n.t('shell.logout')).toBe('Bye');
  });

  it('refuses to start without its texts rather than show keys, and keeps the language when a switch cannot load', async () => {
    fakeFetch({});
    // The failed answer itself is thrown: engine/app/main.tsx then shows its two-language notice.
    await expect(createI18n(builtPage(), 'de-DE')).rejects.toMatchObject({ ok: false, status: 404 });
    fakeFetch({ 'assets/texts.de-DE.aaaa1111.json': FILES['assets/texts.de-DE.aaaa1111.json'] });
    const i18n = await createI18n(builtPage(), 'de-DE');
    await expect(i18n.changeLanguage('en-GB')).rejects.toMatchObject({ ok: false, status: 404 });
    expect(i18n.language).toBe('de-DE');
    expect(i18n.t('shell.logout')).toBe('Abmelden');
  });

  it('fetches nothing for a page with the full tables inline (portal dev, the studio)', async () => {
    const fetch = fakeFetch();
    const config = {
      ...builtPage(),
      textFiles: undefined,
      texts: { 'de-DE': { 'shell.logout': 'Abmelden' }, 'en-GB': { 'shell.logout': 'Log out' } },
    };
    const i18n = await createI18n(config as PortalConfig, 'en-GB');
    await i18n.changeLanguage('de-DE');
    expect(i18n.t('shell.logout')).toBe('Abmelden');
    expect(fetch).not.toHaveBeenCalled();
  });
});
