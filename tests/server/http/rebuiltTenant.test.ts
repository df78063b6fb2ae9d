/**
 * A tenant rebuilt while the server runs (`portal build`, or `portal preview` building into the
 * same dist/): the next page load gets the new page, its new script names are found, and a page
 * loaded before the rebuild still finds its screens by their old names (server/spa/tenantSite.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTenant, type EngineOutput } from '../../../cli/build/buildTenants';
import { loadValidTenants } from '../../../cli/commands/loadValidTenants';
import type { ResolvedTenant } from '../../../tenant';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import { listen } from '../../support/apiClient';
import { rawGet } from '../../support/rawRequest';

const work = mkdtempSync(path.join(os.tmpdir(), 'portal-rebuilt-'));
const distDir = path.join(work, 'dist');
let tenant: ResolvedTenant;
let baseUrl: string;
let close: () => Promise<void>;

/** An engine build whose entry and one screen carry `version` in their names, as content hashes do. */
function engineOf(version: string): EngineOutput {
  const dir = path.join(work, `engine-${version}`);
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  const body = (name: string) =>
    Array.from({ length: 300 }, (_, i) => `export const ${name}${i} = () => "${version} ${i}";`).join('\n');
  writeFileSync(path.join(dir, `assets/index-${version}.js`), body('entry'));
  writeFileSync(path.join(dir, `assets/OrdersScreen-${version}.js`), body('orders'));
  return {
    dir,
    template: `<html lang="en-GB"><head><base href="%PORTAL_BASE%" /><!--portal:head--></head><body><script type="module" src="./assets/index-${version}.js"></script></body></html>`,
    sizes: new Map(),
    textFiles: new Map(),
    baseTexts: new Map(),
    manifest: {
      'index.html': {
        file: `assets/index-${version}.js`,
        src: 'index.html',
        isEntry: true,
        dynamicImports: ['features/orders/OrdersScreen.tsx'],
      },
      'features/orders/OrdersScreen.tsx': { file: `assets/OrdersScreen-${version}.js`, isDynamicEntry: true },
    },
  };
}

const page = async () => (await rawGet(`${baseUrl}/t/stadtkurier/orders`)).body.toString('utf8');
const asset = (file: string) =>
  rawGet(`${baseUrl}/t/stadtkurier/assets/${file}`, { 'accept-encoding': 'br' });

beforeAll(async () => {
  [tenant] = await loadValidTenants(['stadtkurier']);
  await writeTenant(tenant, engineOf('aaaa'), distDir);
  const { app } = createApp({
    // Assets and the page need no database; nothing here reaches one.
    db: {} as never,
    tenants: [tenant],
    distDir,
    mailer: createMailer({ outboxDir: path.join(work, 'outbox') }),
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => {
  await close?.();
  rmSync(work, { recursive: true, force: true });
});

describe('a tenant rebuilt while the server runs', () => {
  it('serves the new page and its new scripts from the next page load on, and the old ones still', async () => {
    expect(await page()).toContain('index-aaaa.js');
    expect((await asset('index-aaaa.js')).status).toBe(200);

    await writeTenant(tenant, engineOf('bbbb'), distDir);

    const html = await page();
    expect(html).toContain('index-bbbb.js');
    expect(html).not.toContain('index-aaaa.js');
    const entry = await asset('index-bbbb.js');
    expect(entry.status).toBe(200);
    expect(entry.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(entry.body)).toEqual(
      readFileSync(path.join(work, 'engine-bbbb', 'assets', 'index-bbbb.js')),
    );
    // A tab opened before the rebuild loads its orders screen later, by the old name.
    const before = await asset('OrdersScreen-aaaa.js');
    expect(before.status).toBe(200);
    expect(brotliDecompressSync(before.body).toString('utf8')).toContain('"aaaa 0"');
    expect((await asset('no-such-file.js')).status).toBe(404);
  });
});
