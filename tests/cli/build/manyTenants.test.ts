/**
 * Issue 15, "building many tenants": one engine build, and per tenant only what differs — engine
 * files hard-linked instead of copied, base texts merged and serialized once per feature set, the
 * same HTML sanitized once. These tests pin that the shortcuts change no tenant's output.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTenant, type EngineOutput } from '../../../cli/build/buildTenants';
import { renderTenantHtml } from '../../../cli/build/renderTenantHtml';
import { sanitizeHtml } from '../../../cli/build/sanitizeTenantHtml';
import { tenantPageInput } from '../../../cli/build/tenantPage';
import { tenantTexts } from '../../../cli/build/tenantTexts';
import { loadValidTenants } from '../../../cli/commands/loadValidTenants';

const work = mkdtempSync(path.join(os.tmpdir(), 'portal-many-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TEMPLATE = '<html lang="en-GB"><head><!--portal:head--></head><body><script type="module" src="./assets/index.js"></script></body></html>';

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
    manifest: {
      'index.html': { file: 'assets/index.js', src: 'index.html', isEntry: true, dynamicImports: ['features/orders/OrdersScreen.tsx', 'features/loyalty-programme/RewardsScreen.tsx'] },
      'features/orders/OrdersScreen.tsx': { file: 'assets/OrdersScreen.js', isDynamicEntry: true },
      'features/loyalty-programme/RewardsScreen.tsx': { file: 'assets/RewardsScreen.js', isDynamicEntry: true },
    },
  };
}

describe('writing a tenant from the shared engine build', () => {
  it('links the engine files it needs instead of copying them, and nothing else', async () => {
    const [tenant] = await loadValidTenants(['stadtkurier']);
    const engine = fakeEngine();
    const report = await writeTenant(tenant, engine, work);
    const out = path.join(work, 'stadtkurier');
    expect(statSync(path.join(out, 'assets/index.js')).ino).toBe(statSync(path.join(engine.dir, 'assets/index.js')).ino);
    expect(existsSync(path.join(out, 'assets/RewardsScreen.js'))).toBe(tenant.features.includes('loyalty-programme'));
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('id="portal-config"');
    expect(report.files).toBe(JSON.parse(readFileSync(path.join(out, 'portal-build.json'), 'utf8')).files.length + 1);
    expect(report.jsGzipBytes).toBeGreaterThan(0);
  });

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
    const custom = tenantTexts({ features: tenant.features, texts: { 'de-DE': { 'shell.logout': 'Tschüss' } } });
    const again = tenantTexts({ features: tenant.features });
    expect(custom['de-DE']['shell.logout']).toBe('Tschüss');
    expect(plain['de-DE']['shell.logout']).not.toBe('Tschüss');
    expect(again['de-DE']['shell.logout']).toBe(plain['de-DE']['shell.logout']);
    const page = (texts: typeof plain) => renderTenantHtml(TEMPLATE, { config: { tenant: { name: 'x', defaultLocale: 'de-DE' } as never, texts }, themeCss: '' });
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
