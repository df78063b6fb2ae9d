/**
 * `npm run bench`: figures as ratios against baselines measured in the same run (never a timing
 * test). Prints:
 *  1. time to build 1 tenant and 20 tenants (variants of the demo tenants);
 *  2. gzipped JS a tenant loads for /orders next to a bare React page built the same way;
 *  3. requests/s and p99 of GET /api/subscriptions next to a plain Express JSON endpoint under the
 *     same autocannon load, on PGlite, or on PostgreSQL when DATABASE_URL is set.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import react from '@vitejs/plugin-react';
import autocannon from 'autocannon';
import express from 'express';
import { build, type Manifest } from 'vite';
import { buildTenants } from '../cli/build/buildTenants';
import { filesForTenant } from '../cli/build/engineBuild';
import { loadTenantFiles } from '../cli/tenant';
import { ROOT_DIR } from '../cli/paths';
import { createApp } from '../server/app';
import { openDatabase } from '../server/db/openDatabase';
import { migrate } from '../server/db/migrate';
import { createMailer } from '../server/mail/mailer';
import { seedDemoData } from '../server/seed';
import { insertLoginToken } from '../server/auth/authStore';
import { hashToken, newSecretToken } from '../server/auth/tokens';
import { MAGIC_LINK_PURPOSE } from '../server/auth/authService';

const work = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;
const gzipOf = (dir: string, files: Iterable<string>) =>
  [...files].filter((f) => f.endsWith('.js')).reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dir, file))).length, 0);

async function bundleSize(tenantDir: string) {
  const bareOut = path.join(work, 'bare');
  await build({
    root: path.join(ROOT_DIR, 'bench', 'bare'),
    base: './',
    configFile: false,
    logLevel: 'silent',
    plugins: [react()],
    build: { outDir: bareOut, emptyOutDir: true, manifest: true, target: 'es2022', reportCompressedSize: false },
  });
  const bareManifest = JSON.parse(readFileSync(path.join(bareOut, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const bare = gzipOf(bareOut, filesForTenant(bareManifest, new Set()));
  const engineManifest = JSON.parse(readFileSync(path.join(tenantDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  // What a logged-in visitor of /orders downloads: the shell plus the orders screen.
  const orders = gzipOf(tenantDir, filesForTenant(engineManifest, new Set(['orders'])));
  console.log('\n2. JavaScript for /orders (gzipped)');
  console.log(`   bare React page      ${kb(bare)}   1.00×`);
  console.log(`   tenant /orders       ${kb(orders)}   ${ratio(orders, bare)}`);
}

async function buildTimes() {
  const { tenants, issues } = await loadTenantFiles();
  if (issues.length) throw new Error('demo tenants are invalid; run npx portal validate');
  const variants = Array.from({ length: 20 }, (_, i) => ({ ...tenants[i % tenants.length], id: `${tenants[i % tenants.length].id}-v${i}` }));
  const time = async (list: typeof tenants) => {
    const started = performance.now();
    await buildTenants(list, { distDir: path.join(work, 'dist'), engineDir: path.join(work, 'dist', '.engine') });
    return performance.now() - started;
  };
  await time(variants.slice(0, 1)); // warm-up: first Vite run loads its plugins
  const one = await time(variants.slice(0, 1));
  const twenty = await time(variants);
  console.log('\n1. Build time');
  console.log(`   1 tenant             ${(one / 1000).toFixed(2)} s   1.00×`);
  console.log(`   20 tenants           ${(twenty / 1000).toFixed(2)} s   ${ratio(twenty, one)}`);
  return path.join(work, 'dist', '.engine');
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, headers, connections: 10, duration: 8, workers: 0 });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function apiThroughput() {
  const { tenants } = await loadTenantFiles();
  const tenant = tenants.find((t) => t.id === 'stadtkurier')!;
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: 'memory://' });
  await migrate(db);
  const logins = await seedDemoData(db, [tenant]);
  const { app, auth } = createApp({ db, tenants: [tenant], distDir: path.join(work, 'dist'), mailer: createMailer({ outboxDir: path.join(work, 'outbox') }) });
  const token = newSecretToken();
  await insertLoginToken(db, tenant.id, { tokenHash: hashToken(token), email: logins[0].email, purpose: MAGIC_LINK_PURPOSE, expiresAt: new Date(Date.now() + 600_000) });
  const { accessToken } = await auth.loginWithToken(tenant, token);
  const portal = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => portal.once('listening', resolve));
  const portalUrl = `http://127.0.0.1:${(portal.address() as AddressInfo).port}/t/${tenant.id}/api/subscriptions`;
  const payload = await (await fetch(portalUrl, { headers: { 'x-auth-token': accessToken } })).json();

  const plain = express();
  plain.get('/json', (_req, res) => void res.json(payload));
  const plainServer = plain.listen(0, '127.0.0.1');
  await new Promise((resolve) => plainServer.once('listening', resolve));
  const plainUrl = `http://127.0.0.1:${(plainServer.address() as AddressInfo).port}/json`;

  const baseline = await load(plainUrl, {});
  const measured = await load(portalUrl, { 'x-auth-token': accessToken });
  console.log(`\n3. GET /api/subscriptions (${payload.length} subscriptions, ${db.kind}, 10 connections, 8 s)`);
  console.log(`   plain Express JSON   ${baseline.rps.toFixed(0)} req/s   p99 ${baseline.p99} ms   1.00×`);
  console.log(`   portal API           ${measured.rps.toFixed(0)} req/s   p99 ${measured.p99} ms   ${ratio(measured.rps, baseline.rps)} throughput, ${ratio(measured.p99 || 1, baseline.p99 || 1)} p99   errors ${measured.errors}`);
  portal.close();
  plainServer.close();
  portal.closeAllConnections();
  plainServer.closeAllConnections();
  await db.close();
}

try {
  const engineDir = await buildTimes();
  await bundleSize(engineDir);
  await apiThroughput();
} finally {
  rmSync(work, { recursive: true, force: true });
}
