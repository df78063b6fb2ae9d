import { copyFileSync, linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import path from 'node:path';
import type { Manifest } from 'vite';
import { enabledFeatures } from '../../engine/features';
import type { ResolvedTenant } from '../tenant';
import { buildEngine, filesForTenant } from './engineBuild';
import { renderTenantHtml } from './renderTenantHtml';
import { tenantPageInput } from './tenantPage';

export interface TenantBuildReport {
  tenant: string;
  files: number;
  bytes: number;
  gzipBytes: number;
  jsGzipBytes: number;
}

/** One engine file's sizes, measured once per build however many tenants ship it. */
interface EngineFile {
  bytes: number;
  gzipBytes: number;
}

/**
 * What every tenant of one build shares: the engine's manifest and index.html, and the sizes of its
 * files (DESIGN.md "Building tenants": per-tenant work is only what differs).
 */
export interface EngineOutput {
  dir: string;
  manifest: Manifest;
  template: string;
  sizes: Map<string, Promise<EngineFile>>;
}

/**
 * `portal build`: one engine build shared by all tenants, then `dist/<tenant>/` per tenant with
 * its config and theme inlined and only the chunks its enabled features need.
 */
export async function buildTenants(
  tenants: readonly ResolvedTenant[],
  options: { distDir: string; engineDir: string; progress?: (message: string) => void },
): Promise<TenantBuildReport[]> {
  const progress = options.progress ?? (() => undefined);
  progress(`building the engine once for ${tenants.length} tenant(s) …`);
  const { manifest, template } = await buildEngine(options.engineDir);
  const engine: EngineOutput = { dir: options.engineDir, manifest, template, sizes: new Map() };
  // Tenants are written a few at a time, so one's compression overlaps the next one's page.
  const reports: TenantBuildReport[] = new Array(tenants.length);
  let next = 0;
  const worker = async () => {
    while (next < tenants.length) {
      const index = next++;
      progress(`writing dist/${tenants[index].id}/ …`);
      reports[index] = await writeTenant(tenants[index], engine, options.distDir);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, tenants.length) }, worker));
  return reports;
}

const gzipAsync = promisify(gzip);

function engineFile(engine: EngineOutput, file: string): Promise<EngineFile> {
  let size = engine.sizes.get(file);
  if (!size) {
    size = readFile(path.join(engine.dir, file)).then(async (content) => ({ bytes: content.length, gzipBytes: (await gzipAsync(content)).length }));
    engine.sizes.set(file, size);
  }
  return size;
}

/**
 * Hard-links an engine file into a tenant's folder (no bytes copied: the tenant ships the very file
 * the engine build wrote), copying only where links cannot be made (another file system). Vite
 * empties the engine folder before the next build, so a linked file is never changed in place.
 * Synchronous on purpose: a link is a few microseconds, less than handing it to libuv's threads,
 * which stay free for compressing.
 */
function placeFile(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw error;
    copyFileSync(from, to);
  }
}

/** `dist/<tenant>/`: the engine files its features need (linked), its index.html and its build record. */
export async function writeTenant(tenant: ResolvedTenant, engine: EngineOutput, distDir: string): Promise<TenantBuildReport> {
  const enabled = new Set(enabledFeatures(tenant.features).map((feature) => feature.id));
  const files = [...filesForTenant(engine.manifest, enabled)].sort();
  const outDir = path.join(distDir, tenant.id);
  rmSync(outDir, { recursive: true, force: true });
  const folders = new Set([path.join(outDir, 'assets'), ...files.map((file) => path.dirname(path.join(outDir, file)))]);
  for (const folder of folders) mkdirSync(folder, { recursive: true });
  const html = renderTenantHtml(engine.template, tenantPageInput(tenant));
  // Compressing runs on libuv's threads while this thread links and writes.
  const sized = Promise.all([Promise.all(files.map((file) => engineFile(engine, file))), gzipAsync(html)]);
  for (const file of files) placeFile(path.join(engine.dir, file), path.join(outDir, file));
  writeFileSync(path.join(outDir, 'index.html'), html);
  writeFileSync(path.join(outDir, 'portal-build.json'), JSON.stringify({ tenant: tenant.id, features: [...enabled], files }, null, 2));
  const [sizes, gzippedHtml] = await sized;
  let bytes = Buffer.byteLength(html);
  let gzipBytes = gzippedHtml.length;
  let jsGzipBytes = 0;
  files.forEach((file, index) => {
    bytes += sizes[index].bytes;
    gzipBytes += sizes[index].gzipBytes;
    if (file.endsWith('.js')) jsGzipBytes += sizes[index].gzipBytes;
  });
  return { tenant: tenant.id, files: files.length + 1, bytes, gzipBytes, jsGzipBytes };
}

export function formatBuildTable(reports: readonly TenantBuildReport[]): string {
  const kb = (value: number) => `${(value / 1024).toFixed(1)} KB`;
  const rows = [['tenant', 'files', 'size', 'gzipped', 'js gzipped'], ...reports.map((r) => [r.tenant, String(r.files), kb(r.bytes), kb(r.gzipBytes), kb(r.jsGzipBytes)])];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')).join('\n');
}
