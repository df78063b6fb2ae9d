import { describe, expect, it } from 'vitest';
import type { Manifest } from 'vite';
import { filesForTenant } from '../../../cli/build/engineBuild';
import { renderTenantHtml } from '../../../tenant/page/renderTenantHtml';
import { sanitizeHtml, sanitizeTenantHtml } from '../../../tenant/page/sanitizeTenantHtml';

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_shared.js'],
    css: ['assets/index.css'],
    dynamicImports: ['features/orders/OrdersScreen.tsx', 'features/loyalty-programme/RewardsScreen.tsx'],
  },
  '_shared.js': { file: 'assets/shared.js' },
  'features/orders/OrdersScreen.tsx': {
    file: 'assets/OrdersScreen.js',
    src: 'features/orders/OrdersScreen.tsx',
    isDynamicEntry: true,
    imports: ['_cards.js'],
  },
  '_cards.js': { file: 'assets/cards.js' },
  'features/loyalty-programme/RewardsScreen.tsx': {
    file: 'assets/RewardsScreen.js',
    src: 'features/loyalty-programme/RewardsScreen.tsx',
    isDynamicEntry: true,
    imports: ['_loyalty.js'],
  },
  '_loyalty.js': { file: 'assets/loyalty.js' },
};

describe('which chunks a tenant ships', () => {
  it('ships the entry, its imports and the screens of enabled features only', () => {
    expect([...filesForTenant(manifest, new Set(['orders']))].sort()).toEqual([
      'assets/OrdersScreen.js',
      'assets/cards.js',
      'assets/index.css',
      'assets/index.js',
      'assets/shared.js',
    ]);
  });

  it('ships no loyalty code to a tenant without the loyalty programme', () => {
    const files = [...filesForTenant(manifest, new Set(['orders']))];
    expect(files.some((file) => file.includes('loyalty') || file.includes('Rewards'))).toBe(false);
    expect(filesForTenant(manifest, new Set(['orders', 'loyalty-programme']))).toContain('assets/loyalty.js');
  });
});

describe('renderTenantHtml', () => {
  const template = '<html lang="en-GB"><head><!--portal:head--></head><body></body></html>';
  const tenant = {
    id: 'x',
    name: 'Evil </script><script>alert(1)</script>',
    defaultLocale: 'de-DE',
  } as never;

  it('inlines title, theme and config, and sets the tenant language', () => {
    const html = renderTenantHtml(template, {
      config: { tenant, texts: { 'de-DE': {}, 'en-GB': {} } },
      themeCss: ':root{--color-primary:#123456}',
    });
    expect(html).toContain('<html lang="de-DE">');
    expect(html).toContain('<style id="portal-theme">:root{--color-primary:#123456}</style>');
    expect(html).toContain('id="portal-config"');
  });

  it("names the text files of a built page and preloads the default locale's, the way the engine fetches it", () => {
    const textFiles = {
      'de-DE': 'assets/texts.de-DE.0123abcd.json',
      'en-GB': 'assets/texts.en-GB.4567ef01.json',
    };
    const html = renderTenantHtml(template, {
      config: { tenant, texts: { 'de-DE': { 'shell.logout': 'Tschüss' } }, textFiles },
      themeCss: '',
    });
    expect(html).toContain(
      '<link rel="preload" href="assets/texts.de-DE.0123abcd.json" as="fetch" crossorigin="anonymous">',
    );
    expect(html).not.toContain('rel="preload" href="assets/texts.en-GB');
    const json = /id="portal-config">(.*?)<\/script>/s.exec(html)![1];
    expect(JSON.parse(json)).toEqual({
      tenant,
      textFiles,
      texts: { 'de-DE': { 'shell.logout': 'Tschüss' } },
      basePath: '',
    });
  });

  it('cannot be broken out of by tenant text', () => {
    const html = renderTenantHtml(template, {
      config: { tenant, texts: { 'de-DE': {}, 'en-GB': {} } },
      themeCss: '',
    });
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('\\u003c/script\\u003e');
  });
});

describe('tenant HTML sanitizing at build time', () => {
  it('removes scripts, handlers and javascript: links but keeps formatting', () => {
    const dirty =
      '<p onclick="steal()">Hi <strong>there</strong><script>alert(1)</script> <a href="javascript:alert(1)">x</a> <a href="https://example.com" target="_blank">ok</a></p>';
    const clean = sanitizeHtml(dirty);
    expect(clean).not.toMatch(/script|onclick|javascript:/);
    expect(clean).toContain('<strong>there</strong>');
    expect(clean).toContain('href="https://example.com"');
  });

  it('sanitizes exactly the fields the schema marks as text/html', () => {
    const schema = {
      type: 'object',
      properties: {
        announcement: {
          type: 'object',
          properties: { html: { type: 'string', contentMediaType: 'text/html' } },
        },
        name: { type: 'string' },
      },
    };
    const result = sanitizeTenantHtml(
      { announcement: { html: '<b>x</b><img src=x onerror=alert(1)>' }, name: '<b>Name</b>' },
      schema,
    );
    expect(result.announcement.html).toBe('<b>x</b><img src="x">');
    expect(result.name).toBe('<b>Name</b>');
  });
});
