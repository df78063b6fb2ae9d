/**
 * Building many tenants: one engine build, and per tenant only what differs — engine
 * files hard-linked instead of copied into one assets folder per set of files that every tenant with
 * those features and languages links to, base texts merged once per feature set and written once per
 * locale into a shared, hashed file instead of into every page, the same HTML sanitized once. These
 * tests pin that the shortcuts change no tenant's output.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ASSET_FOLDERS, buildTenants, writeTenant, type EngineOutput } from '../../../cli/build/buildTenants';
import { renderTenantHtml } from '../../../tenant/page/renderTenantHtml';
import { sanitizeHtml } from '../../../tenant/page/sanitizeTenantHtml';
import { tenantPageInput } from '../../../tenant/page/tenantPage';
import { splitTexts, tenantTexts } from '../../../tenant/page/tenantTexts';
import { fallbackLocaleOf } from '../../../engine/domain/locales';
import type { PortalConfig } from '../../../engine/domain/portalConfig';
import type { Locale } from '../../../engine/domain/locales';
import { loadValidTenants } from '../../../cli/commands/loadValidTenants';

const work = mkdtempSync(path.join(os.tmpdir(), 'portal-many-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TEMPLATE =
  '<html lang="en-GB"><head><!--portal:head--></head><body><script type="module" src="./assets/index.js"></script></body></html>';

function fakeEngine(): EngineOutput {
  const dir = path.join(work, '.engine');
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'assets/index.js'), 'console.log("entry");'.repeat(50));
  writeFileSync(path.join(dir, 'assets/OrdersScreen.js'), 'console.log("orders");'.repeat(20));
  writeFileSync(path.join(dir, 'assets/RewardsScreen.js'), 'console.log("loyalty");');
  return {
    dir,
    template: TEMPLATE,
    sizes: new Map(),
    textFiles: new Map(),
    baseTexts: new Map(),
    manifest: {
      'index.html': {
        file: 'assets/index.js',
        src: 'index.html',
        isEntry: true,
        dynamicImports: ['features/orders/OrdersScreen.tsx', 'features/loyalty-programme/RewardsScreen.tsx'],
      },
      'features/orders/OrdersScreen.tsx': { file: 'assets/OrdersScreen.js', isDynamicEntry: true },
      'features/loyalty-programme/RewardsScreen.tsx': {
        file: 'assets/RewardsScreen.js',
        isDynamicEntry: true,
      },
    },
  };
}

describe('writing a tenant from the shared engine build', () => {
  it('links the engine files it needs instead of copying them, and nothing else', async () => {
    const [tenant] = await loadValidTenants(['stadtkurier']);
    const engine = fakeEngine();
    const report = await writeTenant(tenant, engine, work);
    const out = path.join(work, 'stadtkurier');
    expect(statSync(path.join(out, 'assets/index.js')).ino).toBe(
      statSync(path.join(engine.dir, 'assets/index.js')).ino,
    );
    expect(existsSync(path.join(out, 'assets/RewardsScreen.js'))).toBe(
      tenant.features.includes('loyalty-programme'),
    );
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('id="portal-config"');
    expect(report.files).toBe(
      JSON.parse(readFileSync(path.join(out, 'portal-build.json'), 'utf8')).files.length + 1,
    );
    expect(report.jsGzipBytes).toBeGreaterThan(0);
  });

  it("links each tenant's assets to one folder shared by the tenants with the same files, and only those", async () => {
    const [technikwelt, stadtkurier] = await loadValidTenants(['technikwelt', 'stadtkurier']);
    const engine = fakeEngine();
    await writeTenant(technikwelt, engine, work);
    await writeTenant({ ...technikwelt, id: 'technikwelt-twin', name: 'Twin' }, engine, work);
    await writeTenant(stadtkurier, engine, work);
    const target = (id: string) => readlinkSync(path.join(work, id, 'assets'));
    expect(lstatSync(path.join(work, 'technikwelt', 'assets')).isSymbolicLink()).toBe(true);
    // Relative, so dist/ can be moved or copied as a whole.
    expect(target('technikwelt')).toBe(path.join('..', ASSET_FOLDERS, path.basename(target('technikwelt'))));
    expect(target('technikwelt-twin')).toBe(target('technikwelt'));
    // stadtkurier offers German only and has other features: another set of files, another folder.
    expect(target('stadtkurier')).not.toBe(target('technikwelt'));
    const shared = realpathSync(path.join(work, 'technikwelt', 'assets'));
    expect(path.dirname(shared)).toBe(realpathSync(path.join(work, ASSET_FOLDERS)));
    const record = JSON.parse(readFileSync(path.join(work, 'technikwelt', 'portal-build.json'), 'utf8')) as {
      files: string[];
    };
    // Besides the files, only their compressed variants.
    expect(
      readdirSync(shared)
        .filter((f) => f !== '.complete' && !/\.(br|gz)$/.test(f))
        .sort(),
    ).toEqual(record.files.map((f) => f.slice('assets/'.length)).sort());
  });

  it('removes the shared folders no tenant links to any more, ten minutes after a build found them unused', async () => {
    const dist = mkdtempSync(path.join(work, 'dist-gc-'));
    const anHourAgo = new Date(Date.now() - 3_600_000);
    // Made an hour ago and unlinked by this build: marked, kept for the pages loaded before it.
    mkdirSync(path.join(dist, ASSET_FOLDERS, 'an-old-set'), { recursive: true });
    writeFileSync(path.join(dist, ASSET_FOLDERS, 'an-old-set', 'index-old.js'), 'old');
    utimesSync(path.join(dist, ASSET_FOLDERS, 'an-old-set'), anHourAgo, anHourAgo);
    // Found unused by a build an hour ago: removed.
    mkdirSync(path.join(dist, ASSET_FOLDERS, 'a-long-unused-set'), { recursive: true });
    writeFileSync(path.join(dist, ASSET_FOLDERS, 'a-long-unused-set', '.unused'), '');
    utimesSync(path.join(dist, ASSET_FOLDERS, 'a-long-unused-set', '.unused'), anHourAgo, anHourAgo);
    // A folder another build is making, and one it has just made: both are left alone.
    mkdirSync(path.join(dist, ASSET_FOLDERS, 'a-new-set.4242.1'), { recursive: true });
    mkdirSync(path.join(dist, ASSET_FOLDERS, 'a-new-set'), { recursive: true });
    const [stadtkurier] = await loadValidTenants(['stadtkurier']);
    await buildTenants([stadtkurier], { distDir: dist, engineDir: path.join(dist, '.engine') });
    const left = readdirSync(path.join(dist, ASSET_FOLDERS)).sort();
    expect(left).toEqual(
      [
        'a-new-set',
        'a-new-set.4242.1',
        'an-old-set',
        path.basename(readlinkSync(path.join(dist, 'stadtkurier', 'assets'))),
      ].sort(),
    );
    expect(existsSync(path.join(dist, ASSET_FOLDERS, 'an-old-set', '.unused'))).toBe(true);
    expect(existsSync(path.join(dist, ASSET_FOLDERS, 'a-new-set', '.unused'))).toBe(false);
    // The built tenant's files are reachable through its link.
    expect(
      existsSync(
        path.join(
          dist,
          'stadtkurier',
          'assets',
          path.basename(
            JSON.parse(readFileSync(path.join(dist, 'stadtkurier', 'portal-build.json'), 'utf8')).texts[
              'de-DE'
            ],
          ),
        ),
      ),
    ).toBe(true);
  }, 60_000);

  it('leaves no file of an earlier build behind', async () => {
    const [tenant] = await loadValidTenants(['stadtkurier']);
    const out = path.join(work, 'stadtkurier');
    mkdirSync(path.join(out, 'assets'), { recursive: true });
    writeFileSync(path.join(out, 'assets/old-hash.js'), 'stale');
    await writeTenant(tenant, fakeEngine(), work);
    expect(existsSync(path.join(out, 'assets/old-hash.js'))).toBe(false);
  });
});

describe('per-tenant work only where tenants differ', () => {
  it('writes the same configuration as serializing it whole', async () => {
    const [tenant] = await loadValidTenants(['technikwelt']);
    const input = tenantPageInput(tenant);
    const html = renderTenantHtml(TEMPLATE, input);
    const json = /<script type="application\/json" id="portal-config">(.*?)<\/script>/s.exec(html)![1];
    expect(JSON.parse(json)).toEqual({ ...input.config, basePath: '' });
    expect(json).not.toMatch(/[<>\u2028\u2029]/);
  });

  it("keeps one tenant's text overrides out of another's page with the same features", async () => {
    const [tenant] = await loadValidTenants(['stadtkurier']);
    const plain = tenantTexts({ features: tenant.features });
    const custom = tenantTexts({
      features: tenant.features,
      texts: { 'de-DE': { 'shell.logout': 'Tschüss' } },
    });
    const again = tenantTexts({ features: tenant.features });
    expect(custom['de-DE']['shell.logout']).toBe('Tschüss');
    expect(plain['de-DE']['shell.logout']).not.toBe('Tschüss');
    expect(again['de-DE']['shell.logout']).toBe(plain['de-DE']['shell.logout']);
    const page = (texts: typeof plain) =>
      renderTenantHtml(TEMPLATE, {
        config: { tenant: { name: 'x', defaultLocale: 'de-DE' } as never, texts },
        themeCss: '',
      });
    expect(page(plain)).not.toContain('Tschüss');
    expect(page(custom)).toContain('Tschüss');
    expect(page(again)).not.toContain('Tschüss');
  });

  it('sanitizes a repeated HTML string to the same safe result', () => {
    const dirty = '<p>Hi <img src=x onerror="steal()"><a href="javascript:alert(1)">x</a></p>';
    const first = sanitizeHtml(dirty);
    expect(first).not.toMatch(/onerror|javascript:/);
    expect(sanitizeHtml(dirty)).toBe(first);
    expect(sanitizeHtml('plain text without markup')).toBe('plain text without markup');
  });
});

describe('base texts in shared files instead of every page', () => {
  const pageConfig = (html: string) =>
    JSON.parse(
      /<script type="application\/json" id="portal-config">(.*?)<\/script>/s.exec(html)![1],
    ) as PortalConfig;
  const built = (id: string) => {
    const out = path.join(work, id);
    return {
      out,
      html: readFileSync(path.join(out, 'index.html'), 'utf8'),
      record: JSON.parse(readFileSync(path.join(out, 'portal-build.json'), 'utf8')) as {
        files: string[];
        texts: Record<string, string>;
      },
      textFiles: readdirSync(path.join(out, 'assets')).filter(
        (file) => file.startsWith('texts.') && file.endsWith('.json'),
      ),
    };
  };

  it('ships a tenant that offers only German the German text file only', async () => {
    const [stadtkurier] = await loadValidTenants(['stadtkurier']);
    expect(stadtkurier.locales).toEqual(['de-DE']);
    const report = await writeTenant(stadtkurier, fakeEngine(), work);
    const { html, record, textFiles } = built('stadtkurier');
    expect(textFiles).toHaveLength(1);
    expect(textFiles[0]).toMatch(/^texts\.de-DE\.[0-9a-f]{8}\.json$/);
    expect(record.texts).toEqual({ 'de-DE': `assets/${textFiles[0]}` });
    expect(record.files).toContain(`assets/${textFiles[0]}`);
    expect(report.files).toBe(record.files.length + 1);
    expect(pageConfig(html).textFiles).toEqual({ 'de-DE': `assets/${textFiles[0]}` });
    expect(Object.keys(pageConfig(html).texts)).toEqual(['de-DE']);
  });

  it('gives tenants with the same features the very same files, linked from one written once', async () => {
    const [technikwelt] = await loadValidTenants(['technikwelt']);
    const engine = fakeEngine();
    await writeTenant(technikwelt, engine, work);
    await writeTenant(
      { ...technikwelt, id: 'technikwelt-copy', name: 'Copy', texts: { 'en-GB': { 'shell.logout': 'Bye' } } },
      engine,
      work,
    );
    const first = built('technikwelt');
    const copy = built('technikwelt-copy');
    expect(first.textFiles).toHaveLength(2);
    expect(copy.textFiles).toEqual(first.textFiles);
    for (const file of first.textFiles) {
      const inode = statSync(path.join(engine.dir, 'assets', file)).ino;
      expect(statSync(path.join(first.out, 'assets', file)).ino).toBe(inode);
      expect(statSync(path.join(copy.out, 'assets', file)).ino).toBe(inode);
    }
    // The override is the copy's alone, in its page.
    expect(copy.html).toContain('"shell.logout":"Bye"');
    expect(first.html).not.toContain('"shell.logout":"Bye"');
  });

  it("keeps the base texts out of index.html and preloads the default locale's file", async () => {
    const [technikwelt] = await loadValidTenants(['technikwelt']);
    await writeTenant(technikwelt, fakeEngine(), work);
    const { html, record } = built('technikwelt');
    const full = tenantTexts(technikwelt);
    const baseOnly = Object.entries(full['en-GB']).filter(
      ([key, text]) => text.length > 20 && !technikwelt.texts?.['en-GB']?.[key],
    );
    expect(baseOnly.length).toBeGreaterThan(100);
    for (const [, text] of baseOnly.slice(0, 50))
      expect(html).not.toContain(JSON.stringify(text).slice(1, -1));
    expect(Buffer.byteLength(html)).toBeLessThan(40_000);
    expect(html).toContain(
      `<link rel="preload" href="${record.texts[technikwelt.defaultLocale]}" as="fetch" crossorigin="anonymous">`,
    );
  });

  it('gives every page, file plus overrides, exactly the texts the full tables gave it', async () => {
    const tenants = await loadValidTenants();
    const engine = fakeEngine();
    for (const tenant of tenants) {
      await writeTenant(tenant, engine, work);
      const { out, html } = built(tenant.id);
      const config = pageConfig(html);
      const full = tenantTexts(tenant);
      const fallback = fallbackLocaleOf(tenant) as Locale;
      expect(Object.keys(config.textFiles!).sort()).toEqual([...tenant.locales].sort());
      for (const locale of tenant.locales as Locale[]) {
        const file = JSON.parse(readFileSync(path.join(out, config.textFiles![locale]!), 'utf8'));
        // What the translator looked up before: the locale's table, then the fallback locale's.
        expect({ ...file, ...config.texts[locale] }).toEqual({ ...full[fallback], ...full[locale] });
      }
    }
  });

  it('fills a key a locale misses from the fallback locale, with the fallback override on top', () => {
    const base = {
      'de-DE': { 'a.hello': 'Hallo', 'a.months_other': 'Monate' },
      'en-GB': {
        'a.hello': 'Hello',
        'a.months_other': 'months',
        'a.onlyEnglish': 'English only',
        'a.also': 'Also',
      },
    };
    const texts = {
      'en-GB': { 'a.onlyEnglish': 'Tenant English', 'a.hello': 'Hi' },
      'de-DE': { 'a.also': 'Auch' },
    };
    const [de, en] = splitTexts(base, texts, ['de-DE', 'en-GB'], 'en-GB');
    expect(de.base).toEqual({
      'a.hello': 'Hallo',
      'a.months_other': 'Monate',
      'a.onlyEnglish': 'English only',
      'a.also': 'Also',
    });
    expect(de.overrides).toEqual({ 'a.also': 'Auch', 'a.onlyEnglish': 'Tenant English' });
    expect(en.base).toBe(base['en-GB']);
    expect(en.overrides).toEqual({ 'a.onlyEnglish': 'Tenant English', 'a.hello': 'Hi' });
    // A German-only tenant falls back to German: nothing English is filled in.
    const [onlyGerman] = splitTexts(base, texts, ['de-DE'], 'de-DE');
    expect(onlyGerman.base).toBe(base['de-DE']);
    expect(onlyGerman.overrides).toEqual({ 'a.also': 'Auch' });
  });
});
