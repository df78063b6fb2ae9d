/**
 * Fast on a phone (docs/testing.md "Speed and size"): each page loads what it runs, and a built page carries a
 * description in its tenant's language. One real engine build (the split is Rolldown's, so a fake
 * manifest would prove nothing) of two demo tenants with different default languages.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from 'vite';
import { buildTenants } from '../../../cli/build/buildTenants';
import { CHUNK_MODULES_FILE, filesForPage, type ChunkModules } from '../../../cli/build/engineBuild';
import { loadValidTenants } from '../../../cli/commands/loadValidTenants';
import { builtTenantPageInput } from '../../../tenant/page/tenantPage';
import { renderTenantHtml } from '../../../tenant/page/renderTenantHtml';
import { PAGE_MODULES } from '../../../bench/bundleMap';
import {
  DEFERRED_TABLE_MODULE,
  LOGIN_SCREEN_MODULE,
  ORDERS_SCREEN_MODULE,
  lazyModuleFiles,
} from '../../../cli/build/deferredScreens';
import { authStateKey, sessionHintKey } from '../../../engine/domain/sessionStorageKeys';
import { JSDOM } from 'jsdom';

const work = mkdtempSync(path.join(os.tmpdir(), 'portal-split-'));
const engineDir = path.join(work, '.engine');
let manifest: Manifest;
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  const tenants = await loadValidTenants(['technikwelt', 'northern-review']);
  await buildTenants(tenants, { distDir: work, engineDir });
  manifest = JSON.parse(readFileSync(path.join(engineDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}, 180_000);

/** The file of every lazy screen under features/, by manifest key. */
const screenFiles = () =>
  Object.entries(manifest)
    .filter(([key, chunk]) => chunk.isDynamicEntry && key.startsWith('features/'))
    .map(([key, chunk]) => ({ key, file: chunk.file }));

const fileOf = (key: string) => manifest[key].file;
/** The modules a built file holds (repository paths), from the list the engine build writes. */
const modulesOf = (file: string) =>
  (JSON.parse(readFileSync(path.join(engineDir, CHUNK_MODULES_FILE), 'utf8')) as ChunkModules)[file].map(
    ([module]) => module,
  );
const accountKit = () => Object.values(manifest).find((chunk) => chunk.name === 'account-kit')!.file;

describe('each page loads what it runs', () => {
  it("gives the login page none of the signed-in shell's, the orders' or the flows' code", () => {
    const login = filesForPage(manifest, PAGE_MODULES['/login']);
    expect(login).toContain(fileOf('features/login/LoginScreen.tsx'));
    expect(login).not.toContain(accountKit());
    for (const { key, file } of screenFiles().filter(({ key }) => !key.startsWith('features/login/')))
      expect(login, key).not.toContain(file);
  });

  it("preloads from the built page only what every page runs: not the orders' or the flows' chunks", () => {
    const html = readFileSync(path.join(work, 'technikwelt', 'index.html'), 'utf8');
    const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\.\/([^"]+)"/g)].map(
      (match) => match[1],
    );
    expect(preloaded.length).toBeGreaterThan(0);
    expect(new Set(preloaded)).toEqual(
      new Set(
        filesForPage(manifest, []).filter((file) => file.endsWith('.js') && file !== fileOf('index.html')),
      ),
    );
    for (const file of [accountKit(), ...screenFiles().map((s) => s.file)])
      expect(preloaded).not.toContain(file);
  });

  it("gives /orders the menu, the account kit and its screen, and no flow's code", () => {
    const orders = filesForPage(manifest, PAGE_MODULES['/orders']);
    expect(orders).toEqual(
      expect.arrayContaining([fileOf('features/orders/OrdersScreen.tsx'), accountKit()]),
    );
    for (const { key, file } of screenFiles().filter(({ key }) => !key.startsWith('features/orders/')))
      expect(orders, key).not.toContain(file);
    // The form fields are the flows' (and the login's), not the account kit's.
    expect(orders.some((file) => /\/fields-/.test(file))).toBe(false);
    // The menu comes in the account kit's file, which it imports.
    expect(modulesOf(accountKit())).toContain('engine/app/shell/Sidebar.tsx');
  });

  it("carries the two capability rules the orders page's cards read, not the table of every rule", () => {
    const orders = filesForPage(manifest, PAGE_MODULES['/orders']);
    const code = orders
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(path.join(engineDir, file), 'utf8'))
      .join('\n');
    // A rule is its flags and its refusals: two of them, download and renewal
    // (engine/domain/cardCapabilities.ts), of the table's two dozen (capabilities.ts).
    expect(code.match(/refusals:/g)).toHaveLength(2);
    const capabilities = Object.values(manifest).find((chunk) => chunk.name === 'capabilities');
    expect(capabilities).toBeDefined();
    expect(orders).not.toContain(capabilities!.file);
  });

  it('loads the purchase orders, with the address rules their cards show, only for an account that has one', () => {
    const orders = filesForPage(manifest, PAGE_MODULES['/orders']);
    const purchaseOrders = 'features/orders/PurchaseOrdersSection.tsx';
    expect(orders).not.toContain(fileOf(purchaseOrders));
    // What a purchase order's card shows (its shipping, its partner's address) comes with it.
    const withPurchaseOrders = filesForPage(manifest, [...PAGE_MODULES['/orders'], purchaseOrders]);
    const addressFormat = Object.values(manifest).find((chunk) => chunk.name === 'addressFormat')!.file;
    expect(withPurchaseOrders).toContain(addressFormat);
    expect(orders).not.toContain(addressFormat);
  });

  it("loads the pending orders' section and the rejected changes' notices only for an account that has some", () => {
    const orders = filesForPage(manifest, PAGE_MODULES['/orders']);
    for (const part of ['features/orders/PendingOrdersSection.tsx', 'features/orders/RejectedChanges.tsx']) {
      expect(manifest[part], part).toBeDefined();
      expect(orders, part).not.toContain(fileOf(part));
    }
  });

  it('names in the entry only the screens a visit starts on, and the deferred table for all others', () => {
    const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!;
    const screens = (entry.dynamicImports ?? []).filter(
      (key) => key === DEFERRED_TABLE_MODULE || /^features\/.*Screen\.tsx$/.test(key),
    );
    expect(screens.sort()).toEqual([
      DEFERRED_TABLE_MODULE,
      'features/login/LoginScreen.tsx',
      'features/orders/OrdersScreen.tsx',
      'features/subscription/SubscriptionScreen.tsx',
    ]);
    expect(filesForPage(manifest, PAGE_MODULES['/orders'])).not.toContain(fileOf(DEFERRED_TABLE_MODULE));
    expect(filesForPage(manifest, PAGE_MODULES['/login'])).not.toContain(fileOf(DEFERRED_TABLE_MODULE));
  });

  /** The files the built page's inline script preloads for a visit that starts on `pagePath`. */
  const preloadedFor = (
    base: string,
    pagePath: string,
    storage: { session?: string; hint?: string } = {},
    tenant = 'technikwelt',
  ) => {
    const html = readFileSync(path.join(work, tenant, 'index.html'), 'utf8');
    const page = new JSDOM(html.replace('%PORTAL_BASE%', base), {
      url: `https://portal.example${base}${pagePath}`,
      runScripts: 'dangerously',
      beforeParse: (window) => {
        if (storage.session) window.sessionStorage.setItem(storage.session, '{}');
        if (storage.hint) window.localStorage.setItem(storage.hint, '1');
      },
    });
    const hrefs = [...page.window.document.querySelectorAll('link[rel="modulepreload"]')].map((link) =>
      (link as HTMLLinkElement).href.replace(`https://portal.example${base}`, ''),
    );
    page.window.close();
    return hrefs;
  };

  it('preloads the deferred table from the page for a visit that starts where it is needed, not on /orders or /login', () => {
    const table = fileOf(DEFERRED_TABLE_MODULE);
    for (const base of ['/', '/t/technikwelt/']) {
      for (const start of ['', 'orders', 'Orders/', 'login'])
        expect(preloadedFor(base, start), `${base}${start}`).not.toContain(table);
      for (const start of [
        'faq',
        'subscriptions/123',
        'subscriptions/123/renewal',
        'loyalty-programme/rewards',
        'orders-x',
      ])
        expect(preloadedFor(base, start), `${base}${start}`).toContain(table);
    }
  });

  it("preloads the first screen's files beside the entry: the orders' with a session, else the login's", () => {
    const orders = lazyModuleFiles(manifest, ORDERS_SCREEN_MODULE);
    const login = lazyModuleFiles(manifest, LOGIN_SCREEN_MODULE);
    expect(orders).toEqual(expect.arrayContaining([fileOf(ORDERS_SCREEN_MODULE), accountKit()]));
    expect(login).toContain(fileOf(LOGIN_SCREEN_MODULE));
    const linkedByThePage = (file: string) => /^assets\/(index|vendor|rolldown-runtime)-/.test(file);
    expect([...orders, ...login].filter(linkedByThePage)).toEqual([]);
    const withSession = { session: authStateKey('technikwelt') };
    for (const base of ['/', '/t/technikwelt/']) {
      for (const start of ['', 'orders', 'Orders/']) {
        expect(preloadedFor(base, start, withSession), `${base}${start}`).toEqual(
          expect.arrayContaining(orders),
        );
        // Another tab's session is handed over: the orders come next there too.
        expect(preloadedFor(base, start, { hint: sessionHintKey('technikwelt') })).toEqual(
          expect.arrayContaining(orders),
        );
        // Without a session the orders page sends to the login.
        const withoutSession = preloadedFor(base, start);
        expect(withoutSession).toEqual(expect.arrayContaining(login));
        expect(withoutSession).not.toContain(fileOf(ORDERS_SCREEN_MODULE));
      }
      expect(preloadedFor(base, 'login')).toEqual(expect.arrayContaining(login));
      expect(preloadedFor(base, 'login')).not.toContain(fileOf(ORDERS_SCREEN_MODULE));
      for (const start of ['faq', 'subscriptions/123'])
        expect(preloadedFor(base, start, withSession)).not.toContain(fileOf(ORDERS_SCREEN_MODULE));
    }
    // An embedded portal's orders page without a session says how to sign in: no login to load.
    expect(
      preloadedFor('/t/northern-review/', 'orders', {}, 'northern-review').filter(
        (file) => !linkedByThePage(file),
      ),
    ).toEqual([]);
    expect(
      preloadedFor(
        '/t/northern-review/',
        'orders',
        { session: authStateKey('northern-review') },
        'northern-review',
      ),
    ).toEqual(expect.arrayContaining(orders));
  });

  it("leaves the login's rules, the embedded sign-in notice and the rare routes' notices out of /orders", () => {
    const orders = filesForPage(manifest, PAGE_MODULES['/orders']);
    const login = filesForPage(manifest, PAGE_MODULES['/login']);
    const chunk = (name: string) => Object.values(manifest).find((c) => c.name === name)!.file;
    // The sign-in destinations (engine/app/access.tsx) come with the login page, which uses them.
    expect(login).toContain(chunk('sign-in'));
    for (const file of [chunk('sign-in'), chunk('notices'), fileOf('core/EmbeddedSignInNotice.tsx')]) {
      expect(orders).not.toContain(file);
      expect(filesForPage(manifest, [])).not.toContain(file);
    }
    const entryModules = modulesOf(fileOf('index.html'));
    for (const module of [
      'engine/domain/returnTo.ts',
      'engine/core/FeatureDisabled.tsx',
      'engine/core/NotFound.tsx',
      // Where a log-out leads loads with the log-out (engine/app/main.tsx).
      'engine/app/afterLogout.ts',
      'engine/domain/loginNotices.ts',
    ])
      expect(entryModules).not.toContain(module);
  });

  it("wraps the lazy imports in the portal's own preload helper, not Vite's", () => {
    const entry = readFileSync(path.join(engineDir, fileOf('index.html')), 'utf8');
    const entryModules = modulesOf(fileOf('index.html'));
    expect(entryModules).toContain('engine/app/modulePreload.ts');
    expect(entryModules.some((module) => module.includes('preload-helper'))).toBe(false);
    expect(entry).not.toContain('vite:preloadError');
    // It still hands each lazy import the files it needs (OrdersScreen: the account kit), but not
    // those every page has loaded before a lazy import runs.
    expect(entry).toContain('__vite__mapDeps');
    const everyPage = filesForPage(manifest, []).filter((file) => file.endsWith('.js'));
    for (const chunk of Object.values(manifest).filter((c) => c.file.endsWith('.js'))) {
      const code = readFileSync(path.join(engineDir, chunk.file), 'utf8');
      const listed = /\(m\.f=\[([^\]]*)\]/.exec(code)?.[1] ?? '';
      for (const file of everyPage) expect(listed, chunk.file).not.toContain(path.basename(file));
    }
  });

  it('keeps the libraries in one file of their own that every page loads', () => {
    const vendor = Object.values(manifest).filter((chunk) => chunk.name === 'vendor');
    expect(vendor).toHaveLength(1);
    expect(filesForPage(manifest, [])).toContain(vendor[0].file);
  });

  it('leaves out the parts of react-router the declarative router never runs, and its own links', () => {
    const vendor = Object.values(manifest).find((chunk) => chunk.name === 'vendor')!;
    const code = readFileSync(path.join(engineDir, vendor.file), 'utf8');
    // The framework mode's forms and Link's route discovery (cli/build/engineBuild.ts, engine/core/links.tsx).
    for (const unused of ['multipart/form-data', 'data-discover']) expect(code).not.toContain(unused);
    // What the portal does run is still there: its client-side navigation.
    expect(code).toContain('popstate');
  });
});

describe('the meta description', () => {
  const descriptionOf = (html: string) => /<meta name="description" content="([^"]*)">/.exec(html)?.[1];

  it("is in the built page in the tenant's default language, with the tenant's name", () => {
    const german = readFileSync(path.join(work, 'technikwelt', 'index.html'), 'utf8');
    expect(german).toContain('<html lang="de-DE">');
    expect(descriptionOf(german)).toBe(
      'Das Kundenportal von TechnikWelt Verlagsgruppe: Abonnements, Bestellungen, Rechnungen, Adressen und Zahlungsdaten selbst verwalten.',
    );
    const english = readFileSync(path.join(work, 'northern-review', 'index.html'), 'utf8');
    expect(english).toContain('<html lang="en-GB">');
    expect(descriptionOf(english)).toMatch(/^The customer portal of The Northern Review: manage your /);
    expect(english).toMatch(/<meta name="theme-color" content="#[0-9a-f]{6}">/i);
  });

  it("takes the tenant's own text for its default language, escaped", async () => {
    const [technikwelt] = await loadValidTenants(['technikwelt']);
    const tenant = {
      ...technikwelt,
      texts: {
        ...technikwelt.texts,
        'de-DE': {
          ...technikwelt.texts?.['de-DE'],
          'shell.metaDescription': 'Ihr Konto bei {{name}} & "mehr"',
        },
      },
    };
    const page = builtTenantPageInput(tenant, (locale) => `assets/texts.${locale}.json`);
    const html = renderTenantHtml('<html lang="en-GB"><head><!--portal:head--></head></html>', page);
    expect(descriptionOf(html)).toBe('Ihr Konto bei TechnikWelt Verlagsgruppe &amp; &quot;mehr&quot;');
  });
});
