/**
 * The page preloads the texts of the language it will show (server/spa/textPreload.ts): a `?lang`
 * first, then the visitor's choice in its cookie, else the tenant's default, by the rule the page
 * itself starts with (engine/domain/language.ts `chooseLocale`).
 */
import { describe, expect, it } from 'vitest';
import { renderTenantHtml } from '../../../tenant/page/renderTenantHtml';
import { preloadShownTexts, textPreloadOf } from '../../../server/spa/textPreload';

const template = '<html lang="en-GB"><head><!--portal:head--></head><body></body></html>';
const tenant = { id: 'x', name: 'X', defaultLocale: 'de-DE', locales: ['de-DE', 'en-GB'] };
const textFiles = {
  'de-DE': 'assets/texts.de-DE.0123abcd.json',
  'en-GB': 'assets/texts.en-GB.4567ef01.json',
};
const html = renderTenantHtml(template, {
  config: { tenant: tenant as never, texts: { 'de-DE': {}, 'en-GB': {} }, textFiles },
  themeCss: '',
});
const preloads = (page: string) => [...page.matchAll(/<link rel="preload" href="([^"]+)"/g)].map((m) => m[1]);

describe("the page's preload of its texts", () => {
  const preload = textPreloadOf(html);

  it("reads the built page's text files", () => {
    expect(preload).toEqual({ preloaded: textFiles['de-DE'], files: textFiles });
  });

  it("preloads the default language's texts without a wish", () => {
    expect(preloads(preloadShownTexts(html, preload, tenant, [undefined, undefined]))).toEqual([
      textFiles['de-DE'],
    ]);
  });

  it('preloads the texts a ?lang asks for, else those of the choice in the cookie', () => {
    expect(preloads(preloadShownTexts(html, preload, tenant, ['en', undefined]))).toEqual([
      textFiles['en-GB'],
    ]);
    expect(preloads(preloadShownTexts(html, preload, tenant, [undefined, 'en-GB']))).toEqual([
      textFiles['en-GB'],
    ]);
    expect(preloads(preloadShownTexts(html, preload, tenant, ['de', 'en-GB']))).toEqual([textFiles['de-DE']]);
  });

  it('keeps the default for a language the tenant does not offer, and leaves the rest of the page as it is', () => {
    const page = preloadShownTexts(html, preload, tenant, ['fr', 'xx<script>']);
    expect(page).toBe(html);
    const english = preloadShownTexts(html, preload, tenant, ['en', undefined]);
    expect(english.replace(textFiles['en-GB'], textFiles['de-DE'])).toBe(html);
  });

  it('leaves a page without text files (portal dev) as it is', () => {
    const dev = renderTenantHtml(template, {
      config: { tenant: tenant as never, texts: { 'de-DE': {}, 'en-GB': {} } },
      themeCss: '',
    });
    expect(textPreloadOf(dev)).toBeUndefined();
    expect(preloadShownTexts(dev, undefined, tenant, ['en', undefined])).toBe(dev);
  });
});
