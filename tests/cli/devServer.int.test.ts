/**
 * `portal dev` (docs/operators.md "`portal dev`: the loop of editing a tenant file"): a tenant file
 * that turns invalid shows its problems in the browser instead of the portal, and the portal comes
 * back once the file is valid; a taken port makes it take the next free one and say so; the log is
 * one line a request.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../cli/commands/dev';
import { formatIssue, validateTenantSource } from '../../tenant';
import { devLogger } from '../../server/http/requestLog';
import { OVERLAY_MARKER } from '../../server/spa/problemOverlay';
import { createTestDatabase } from '../support/database';

const work = mkdtempSync(path.join(os.tmpdir(), 'portal-dev-test-'));
const file = path.join(work, 'stadtkurier.json');
const original = readFileSync(path.join(__dirname, '../../tenants/stadtkurier.json'), 'utf8');
const printed: string[] = [];
const logged: string[] = [];
const blocker = net.createServer();
let blockedPort = 0;
let dev: DevServer;

beforeAll(async () => {
  copyFileSync(path.join(__dirname, '../../tenants/stadtkurier.json'), file);
  // Someone else holds the port asked for.
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
  blockedPort = (blocker.address() as net.AddressInfo).port;
  const { url } = await createTestDatabase();
  dev = await startDevServer({
    tenant: file,
    port: blockedPort,
    databaseUrl: url,
    dataDir: work,
    demoProviders: false,
    print: (line) => void printed.push(line),
    log: devLogger({ write: (line) => void logged.push(line), color: false }),
  });
}, 180_000);

afterAll(async () => {
  await dev?.close();
  blocker.close();
  rmSync(work, { recursive: true, force: true });
});

/** Writes the tenant file and waits until the dev server has read it again. */
async function save(text: string): Promise<void> {
  const checked = dev.nextCheck();
  writeFileSync(file, text);
  await checked;
}

describe('portal dev', () => {
  it('takes the next free port when the one asked for is taken, and says so', () => {
    const port = Number(new URL(dev.url).port);
    expect(port).toBeGreaterThan(blockedPort);
    expect(printed).toContain(`port ${blockedPort} is taken, using ${port}`);
  });

  it('serves the portal while the tenant file is valid', async () => {
    const response = await fetch(`${dev.url}/orders`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('id="portal-config"');
    expect(html).not.toContain(OVERLAY_MARKER);
  });

  it('serves the outbox at localhost, another origin than the portal, and no studio or QA preview', async () => {
    expect(new URL(dev.devPagesUrl).hostname).toBe('localhost');
    expect(new URL(dev.devPagesUrl).port).toBe(new URL(dev.url).port);
    const outbox = await fetch(`${dev.devPagesUrl}/outbox`);
    expect(outbox.status).toBe(200);
    expect(await outbox.text()).toContain('<h1>Outbox</h1>');
    // Their frames would show the portal at /t/<id>/, where Vite's pages do not work:
    // `portal studio` and `portal preview` have them.
    for (const page of ['/studio/', '/preview']) {
      const response = await fetch(`${dev.devPagesUrl}${page}`);
      expect(response.status, page).toBe(404);
    }
    // The portal's own address is the portal's on every path.
    expect(await (await fetch(`${dev.url}/outbox`)).text()).toContain('id="portal-config"');
  });

  it('shows every problem of the file in the browser while it is invalid, and the portal again once it is fixed', async () => {
    const broken = JSON.parse(original) as Record<string, unknown>;
    broken.logoTargetUrl = 'www.stadtkurier.example';
    broken.features = [...(broken.features as string[]), 'cancelation'];
    const brokenText = JSON.stringify(broken, null, 2);
    await save(brokenText);

    const expected = validateTenantSource(file, brokenText).issues;
    expect(expected.map((issue) => issue.pointer).sort()).toEqual(
      ['/features/' + String((broken.features as string[]).length - 1), '/logoTargetUrl'].sort(),
    );
    const response = await fetch(`${dev.url}/orders`);
    expect(response.status).toBe(500);
    const overlay = await response.text();
    expect(overlay).toContain(OVERLAY_MARKER);
    expect(overlay).toContain('2 problems');
    for (const issue of expected) {
      expect(overlay).toContain(`<code>${file}:${issue.line}:${issue.column}</code>`);
      expect(overlay).toContain(`<span class="pointer">${issue.pointer}</span>`);
    }
    expect(overlay).toContain(
      '&quot;www.stadtkurier.example&quot; does not look like a valid URL. Make sure it has a protocol; for example https://example.com',
    );
    expect(overlay).toContain(
      'unknown feature &quot;cancelation&quot;. Did you mean &quot;cancellation&quot;?',
    );
    expect(overlay).toContain('<p class="hint">use one of: ');
    // The page keeps the portal's policy (no unsafe inline script); Vite's client reloads it on the next save.
    expect(overlay).toContain('/@vite/client');
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(response.headers.get('content-security-policy')).not.toMatch(/script-src[^;]*unsafe-inline/);
    // The terminal says the same.
    expect(printed.join('\n')).toContain(expected.map(formatIssue)[0]);
    // The API keeps answering with the last valid version meanwhile.
    expect((await fetch(`${dev.url}/api/faq`)).status).toBe(200);

    await save(original);
    const fixed = await fetch(`${dev.url}/orders`);
    expect(fixed.status).toBe(200);
    const html = await fixed.text();
    expect(html).not.toContain(OVERLAY_MARKER);
    expect(html).toContain('id="portal-config"');
    expect(printed.join('\n')).toContain('is valid again: reloading');
  });

  it('logs one plain line a request and leaves out the modules Vite serves', async () => {
    await fetch(`${dev.url}/api/faq`);
    await fetch(`${dev.url}/@vite/client`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logged.some((line) => /^GET \/api\/faq 200 \d+ ms$/.test(line))).toBe(true);
    expect(logged.some((line) => /^GET \/orders 500 \d+ ms$/.test(line))).toBe(true);
    expect(logged.some((line) => line.includes('@vite'))).toBe(false);
    expect(logged.some((line) => line.includes('\u001b['))).toBe(false);
  });
});
