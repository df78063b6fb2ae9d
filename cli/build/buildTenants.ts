import { copyFileSync, linkSync, writeFile as writeFileCallback, writeFileSync } from 'node:fs';
import { lstat, mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import path from 'node:path';
import type { Manifest } from 'vite';
import { enabledFeatures } from '../../engine/features';
import type { Locale } from '../../engine/domain/locales';
import type { ResolvedTenant } from '../../tenant';
import { displayPath } from '../../tenant/sources';
import { buildEngine, filesForTenant } from './engineBuild';
import { renderTenantHtml } from '../../tenant/page/renderTenantHtml';
import { builtTenantPageInput } from '../../tenant/page/tenantPage';
import { DYNAMIC_BROTLI_QUALITY } from '../../server/http/compression';
import { compressBuiltFile, COMPRESSED_SUFFIXES, type CompressedSizes } from './compressAssets';

export interface TenantBuildReport {
  tenant: string;
  files: number;
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
  jsGzipBytes: number;
}

/**
 * What every tenant of one build shares: the engine's manifest and index.html, the sizes of its
 * files and the base texts' files written so far, by table and by name (docs/architecture.md "Building
 * tenants": per-tenant work is only what differs).
 */
export interface EngineOutput {
  dir: string;
  manifest: Manifest;
  template: string;
  /** Each engine file's sizes and compressed variants, made once per build however many tenants ship it. */
  sizes: Map<string, Promise<CompressedSizes>>;
  textFiles: Map<object | string, string>;
  /** The base text tables by feature set, read once per build (tenant/page/tenantTexts.ts). */
  baseTexts?: Map<string, Record<Locale, Record<string, string>>>;
  /** The engine files by set of enabled features, found in the manifest once per build. */
  chunks?: Map<string, string[]>;
  /** The shared assets folders made in this build, by their name (assetsFolder). */
  assetFolders?: Map<string, Promise<string[]>>;
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
  const engine: EngineOutput = {
    dir: options.engineDir,
    manifest,
    template,
    sizes: new Map(),
    textFiles: new Map(),
    baseTexts: new Map(),
    chunks: new Map(),
    assetFolders: new Map(),
  };
  // Tenants are written a few at a time, so one's files and folders are made on libuv's threads
  // while the next one's page is made; their sizes are measured once all are written.
  const placed: PlacedTenant[] = new Array(tenants.length);
  let next = 0;
  const worker = async () => {
    while (next < tenants.length) {
      const index = next++;
      progress(`writing ${displayPath(path.join(options.distDir, tenants[index].id))}/ …`);
      placed[index] = await placeTenant(tenants[index], engine, options.distDir);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, tenants.length) }, worker));
  await Promise.all(placed.map((tenant) => tenant.assetsMade));
  await removeUnusedAssetFolders(options.distDir);
  return Promise.all(placed.map((tenant) => measureTenant(engine, tenant)));
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
// The callback form: fs/promises' writeFile goes through a FileHandle, several times the work on
// this thread for a small file.
const writeFile = promisify(writeFileCallback);

/** An engine file's sizes, compressed with its variants written next to it the first time it is asked for. */
function engineFile(engine: EngineOutput, file: string): Promise<CompressedSizes> {
  let size = engine.sizes.get(file);
  if (!size) {
    size = compressBuiltFile(path.join(engine.dir, file));
    engine.sizes.set(file, size);
  }
  return size;
}

/**
 * The file of one locale's complete base texts, `assets/texts.<locale>.<hash>.json`:
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
      engine.sizes.set(file, compressBuiltFile(path.join(engine.dir, file), Buffer.from(json)));
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

/** Where the shared assets folders live: `dist/.assets/<name>/`. */
export const ASSET_FOLDERS = '.assets';

/**
 * The one folder of exactly these asset files that every tenant with the same features and
 * languages shares, `dist/.assets/<hash of the file names>/`, each file hard-linked from the engine
 * build. A tenant's `assets` is a link to it: creating a hundred directory entries for every tenant
 * was most of a build of many tenants on a journaling disk, one link is almost nothing.
 * The names carry their content's hash, so a folder of the same name holds the same files and is
 * reused by later builds; it is made under a temporary name and renamed when complete. Next to
 * each text file it holds that file's compressed variants (`x.js.br`, `x.js.gz`), made
 * once per build in the engine's folder and linked like the file. The name is known at once, the
 * folder is made while the next tenants' pages are: compressing is most of a build's work.
 */
function assetsFolder(
  engine: EngineOutput,
  distDir: string,
  assets: readonly string[],
): { name: string; made: Promise<string[]> } {
  // The variants are part of the name, so a folder an earlier build made without them is not reused.
  const name = createHash('sha256')
    .update(assets.join('\n'))
    .update(`\ncompressed: ${COMPRESSED_SUFFIXES.join(' ')}`)
    .digest('hex')
    .slice(0, 16);
  let made = engine.assetFolders?.get(name);
  if (!made) {
    made = (async () => {
      const folder = path.join(distDir, ASSET_FOLDERS, name);
      const prefix = `assets${path.sep}`;
      const sizes = await Promise.all(assets.map((file) => engineFile(engine, file)));
      const files = assets.flatMap((file, index) => [
        file,
        ...sizes[index].variants.map((suffix) => `${file}${suffix}`),
      ]);
      // Reused only when complete and holding exactly these files (nothing added by hand since).
      if (
        await lstat(path.join(folder, '.complete')).then(
          () => true,
          () => false,
        )
      ) {
        const expected = new Set(files.map((file) => file.slice(prefix.length)));
        for (const file of expected)
          for (let dir = path.dirname(file); dir !== '.'; dir = path.dirname(dir)) expected.add(dir);
        const present = (await readdir(folder, { recursive: true })).filter(
          (entry) => entry !== '.complete' && entry !== UNUSED_MARK,
        );
        if (present.length === expected.size && present.every((entry) => expected.has(entry))) {
          await rm(path.join(folder, UNUSED_MARK), { force: true });
          return files;
        }
      }
      const building = `${folder}.${process.pid}.${Date.now()}`;
      const subfolders = new Set(
        files.map((file) => path.dirname(path.join(building, file.slice(prefix.length)))),
      );
      for (const subfolder of subfolders) await mkdir(subfolder, { recursive: true });
      for (const file of files)
        placeFile(`${engine.dir}${path.sep}${file}`, `${building}${path.sep}${file.slice(prefix.length)}`);
      writeFileSync(path.join(building, '.complete'), '');
      await rm(folder, { recursive: true, force: true });
      await rename(building, folder).catch(async (error: NodeJS.ErrnoException) => {
        // Another build made it meanwhile: the same files under the same name.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
        await rm(building, { recursive: true, force: true });
      });
      return files;
    })();
    // Awaited once every tenant is placed; until then a failure must not count as unhandled.
    made.catch(() => undefined);
    engine.assetFolders?.set(name, made);
  }
  return { name, made };
}

/**
 * A tenant's `assets`: a relative link to its shared folder, so `dist/` can move as a whole (made
 * before the folder is complete; the build ends when it is); where the file system has no symbolic
 * links, a folder of its own with each file hard-linked.
 */
async function linkAssets(
  engine: EngineOutput,
  outDir: string,
  folder: { name: string; made: Promise<string[]> },
): Promise<void> {
  try {
    await symlink(
      `..${path.sep}${ASSET_FOLDERS}${path.sep}${folder.name}`,
      path.join(outDir, 'assets'),
      'dir',
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EINVAL' && code !== 'ENOSYS') throw error;
    const files = await folder.made;
    for (const subfolder of new Set(files.map((file) => path.dirname(path.join(outDir, file)))))
      await mkdir(subfolder, { recursive: true });
    for (const file of files) placeFile(`${engine.dir}${path.sep}${file}`, `${outDir}${path.sep}${file}`);
  }
}

/**
 * How long a shared folder stays after no tenant links to it any more, and how young one may be
 * and still belong to a build running beside this one.
 */
const UNUSED_FOLDER_GRACE_MS = 10 * 60_000;

/** The file in a shared folder that says since when no tenant links to it (its modification time). */
const UNUSED_MARK = '.unused';

/**
 * After a build, the shared assets folders no tenant links to any more (an engine change gives new
 * file names, a tenant's new feature another set) are removed once they have been unused for
 * UNUSED_FOLDER_GRACE_MS: a build marks such a folder, a later one removes it. Until then a page
 * a browser loaded before the rebuild still finds the screens it loads later, by their old names
 * (server/spa/tenantSite.ts serves the folder before the current one second). Tenants not built
 * this time keep theirs. Folders still being made (temporary names) and young ones are left alone,
 * so a build running at the same time keeps the folders it is about to link.
 */
async function removeUnusedAssetFolders(distDir: string): Promise<void> {
  const root = path.join(distDir, ASSET_FOLDERS);
  const folders = await readdir(root).catch(() => [] as string[]);
  if (folders.length === 0) return;
  const used = new Set<string>();
  for (const entry of await readdir(distDir)) {
    const target = await readlink(path.join(distDir, entry, 'assets')).catch(() => undefined);
    if (target) used.add(path.basename(target));
  }
  const now = Date.now();
  const ageOf = (file: string) =>
    lstat(file).then(
      (stat) => now - stat.mtimeMs,
      () => undefined,
    );
  for (const folder of folders) {
    if (used.has(folder) || folder.includes('.')) continue;
    const unusedFor = await ageOf(path.join(root, folder, UNUSED_MARK));
    if (unusedFor === undefined) {
      if (((await ageOf(path.join(root, folder))) ?? 0) > UNUSED_FOLDER_GRACE_MS)
        await writeFile(path.join(root, folder, UNUSED_MARK), '');
    } else if (unusedFor > UNUSED_FOLDER_GRACE_MS)
      await rm(path.join(root, folder), { recursive: true, force: true });
  }
}

/**
 * `dist/<tenant>/`: the engine files its features need and the base texts' files of its locales
 * (in its `assets`, a link to the folder it shares with tenants of the same features and
 * languages), its index.html and its build record.
 */
export async function writeTenant(
  tenant: ResolvedTenant,
  engine: EngineOutput,
  distDir: string,
): Promise<TenantBuildReport> {
  const placed = await placeTenant(tenant, engine, distDir);
  await placed.assetsMade;
  return measureTenant(engine, placed);
}

/** What a tenant's folder was made of, for its line in the build table. */
interface PlacedTenant {
  tenant: string;
  files: string[];
  html: string;
  /** Its shared assets folder, complete. */
  assetsMade: Promise<unknown>;
}

async function placeTenant(
  tenant: ResolvedTenant,
  engine: EngineOutput,
  distDir: string,
): Promise<PlacedTenant> {
  const enabled = new Set(enabledFeatures(tenant.features).map((feature) => feature.id));
  const page = builtTenantPageInput(
    tenant,
    (locale, table) => textFile(engine, locale, table),
    engine.baseTexts,
  );
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
  // Folders and files are made on libuv's threads while this thread makes the next tenant's page.
  const prefix = `assets${path.sep}`;
  const folder = assetsFolder(
    engine,
    distDir,
    files.filter((file) => file.startsWith(prefix)),
  );
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await Promise.all([
    writeFile(path.join(outDir, 'index.html'), html),
    writeFile(
      path.join(outDir, 'portal-build.json'),
      JSON.stringify({ tenant: tenant.id, features: [...enabled], files, texts: page.textFiles }, null, 2),
    ),
    linkAssets(engine, outDir, folder),
  ]);
  // Vite puts every file under assets/; anything else would be linked on its own.
  for (const file of files.filter((f) => !f.startsWith(prefix))) {
    await mkdir(path.dirname(path.join(outDir, file)), { recursive: true });
    placeFile(`${engine.dir}${path.sep}${file}`, `${outDir}${path.sep}${file}`);
  }
  return { tenant: tenant.id, files, html, assetsMade: folder.made };
}

/**
 * A tenant's sizes, raw, gzipped and with brotli: its assets' from their compression (done once
 * per build, when their folder was made), its index.html's as the server compresses the page per
 * request (server/http/compression.ts).
 */
async function measureTenant(engine: EngineOutput, placed: PlacedTenant): Promise<TenantBuildReport> {
  const [sizes, gzippedHtml, brotliHtml] = await Promise.all([
    Promise.all(placed.files.map((file) => engineFile(engine, file))),
    gzipAsync(placed.html),
    brotliAsync(placed.html, { params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } }),
  ]);
  let bytes = Buffer.byteLength(placed.html);
  let gzipBytes = gzippedHtml.length;
  let brotliBytes = brotliHtml.length;
  let jsGzipBytes = 0;
  placed.files.forEach((file, index) => {
    bytes += sizes[index].bytes;
    gzipBytes += sizes[index].gzipBytes;
    brotliBytes += sizes[index].brotliBytes;
    if (file.endsWith('.js')) jsGzipBytes += sizes[index].gzipBytes;
  });
  return {
    tenant: placed.tenant,
    files: placed.files.length + 1,
    bytes,
    gzipBytes,
    brotliBytes,
    jsGzipBytes,
  };
}

export function formatBuildTable(reports: readonly TenantBuildReport[]): string {
  const kb = (value: number) => `${(value / 1024).toFixed(1)} KB`;
  const rows = [
    ['tenant', 'files', 'size', 'gzipped', 'brotli', 'js gzipped'],
    ...reports.map((r) => [
      r.tenant,
      String(r.files),
      kb(r.bytes),
      kb(r.gzipBytes),
      kb(r.brotliBytes),
      kb(r.jsGzipBytes),
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  '),
    )
    .join('\n');
}
