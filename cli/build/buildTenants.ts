import { copyFileSync, linkSync, writeFile as writeFileCallback, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import path from 'node:path';
import type { Manifest } from 'vite';
import { enabledFeatures } from '../../engine/features';
import type { Locale } from '../../engine/core/portalConfig';
import type { ResolvedTenant } from '../tenant';
import { buildEngine, filesForTenant } from './engineBuild';
import { renderTenantHtml } from './renderTenantHtml';
import { builtTenantPageInput } from './tenantPage';

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
 * What every tenant of one build shares: the engine's manifest and index.html, the sizes of its
 * files and the base texts' files written so far, by table and by name (DESIGN.md "Building
 * tenants": per-tenant work is only what differs).
 */
export interface EngineOutput {
  dir: string;
  manifest: Manifest;
  template: string;
  sizes: Map<string, Promise<EngineFile>>;
  textFiles: Map<object | string, string>;
  /** The base text tables by feature set, read once per build (cli/build/tenantTexts.ts). */
  baseTexts?: Map<string, Record<Locale, Record<string, string>>>;
  /** The engine files by set of enabled features, found in the manifest once per build. */
  chunks?: Map<string, string[]>;
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
  const engine: EngineOutput = { dir: options.engineDir, manifest, template, sizes: new Map(), textFiles: new Map(), baseTexts: new Map(), chunks: new Map() };
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
// The callback form: fs/promises' writeFile goes through a FileHandle, several times the work on
// this thread for a small file.
const writeFile = promisify(writeFileCallback);

function engineFile(engine: EngineOutput, file: string): Promise<EngineFile> {
  let size = engine.sizes.get(file);
  if (!size) {
    size = readFile(path.join(engine.dir, file)).then(async (content) => ({ bytes: content.length, gzipBytes: (await gzipAsync(content)).length }));
    engine.sizes.set(file, size);
  }
  return size;
}

/**
 * The file of one locale's complete base texts (issue 15), `assets/texts.<locale>.<hash>.json`:
 * written into the engine's folder once per distinct table, however many tenants ship it, and then
 * linked into each tenant's folder like the engine's own files. Named by its content, so a browser
 * keeps it across deploys until the texts change, and tenants with the same features share it.
 */
function textFile(engine: EngineOutput, locale: string, table: Readonly<Record<string, string>>): string {
  let file = engine.textFiles.get(table);
  if (file === undefined) {
    const json = JSON.stringify(table);
    file = `assets/texts.${locale}.${createHash('sha256').update(json).digest('hex').slice(0, 8)}.json`;
    if (!engine.textFiles.has(file)) {
      try {
        // Vite empties the folder before each engine build; an existing file of this name has this content.
        writeFileSync(path.join(engine.dir, file), json, { flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const content = Buffer.from(json);
      engine.sizes.set(file, gzipAsync(content).then((gzipped) => ({ bytes: content.length, gzipBytes: gzipped.length })));
      engine.textFiles.set(file, file);
    }
    engine.textFiles.set(table, file);
  }
  return file;
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

/**
 * `dist/<tenant>/`: the engine files its features need and the base texts' files of its locales
 * (linked), its index.html and its build record.
 */
export async function writeTenant(tenant: ResolvedTenant, engine: EngineOutput, distDir: string): Promise<TenantBuildReport> {
  const enabled = new Set(enabledFeatures(tenant.features).map((feature) => feature.id));
  const page = builtTenantPageInput(tenant, (locale, table) => textFile(engine, locale, table), engine.baseTexts);
  const texts = Object.values(page.textFiles);
  const featureKey = [...enabled].sort().join(' ');
  let chunks = engine.chunks?.get(featureKey);
  if (!chunks) {
    chunks = [...filesForTenant(engine.manifest, enabled)];
    engine.chunks?.set(featureKey, chunks);
  }
  const files = [...chunks, ...texts].sort();
  const outDir = path.join(distDir, tenant.id);
  const html = renderTenantHtml(engine.template, page);
  // Compressing runs on libuv's threads while this thread goes on.
  const sized = Promise.all([Promise.all(files.map((file) => engineFile(engine, file))), gzipAsync(html)]);
  // Creating folders and files waits for the disk (a millisecond each on a build machine's virtual
  // disk, much more than a link): on libuv's threads, the tenants being written at once overlap.
  await rm(outDir, { recursive: true, force: true });
  const folders = new Set([path.join(outDir, 'assets'), ...files.map((file) => path.dirname(path.join(outDir, file)))]);
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  const written = Promise.all([
    writeFile(path.join(outDir, 'index.html'), html),
    writeFile(path.join(outDir, 'portal-build.json'), JSON.stringify({ tenant: tenant.id, features: [...enabled], files, texts: page.textFiles }, null, 2)),
  ]);
  // Paths by concatenation: the manifest's file names are relative and normalized already, and
  // path.join for thousands of links is measurable.
  for (const file of files) placeFile(`${engine.dir}${path.sep}${file}`, `${outDir}${path.sep}${file}`);
  const [[sizes, gzippedHtml]] = await Promise.all([sized, written]);
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
