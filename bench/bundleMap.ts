/**
 * The bundle map of `npm run bench`: for the login page and a signed-in /orders, the
 * JavaScript files the browser loads, in the order it asks for them, each gzipped, and what fills
 * the files every page loads (the entry and the libraries), largest module first. Read from one
 * engine build: Vite's manifest for the files (cli/build/engineBuild.ts filesForPage) and the
 * build's list of each chunk's modules (CHUNK_MODULES_FILE).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Manifest } from 'vite';
import { CHUNK_MODULES_FILE, filesForPage, type ChunkModules } from '../cli/build/engineBuild';

/**
 * The lazy modules each measured page renders besides the entry, as the manifest keys them: the
 * login page its screen; /orders, signed in, its screen, which imports the account kit's file, where
 * the menu is too (engine/app/Shell.tsx; `CHUNK_GROUPS` in cli/build/engineBuild.ts).
 */
export const PAGE_MODULES = {
  '/login': ['features/login/LoginScreen.tsx'],
  '/orders': ['features/orders/OrdersScreen.tsx'],
} as const satisfies Record<string, readonly string[]>;

export type MeasuredPage = keyof typeof PAGE_MODULES;

export interface PageScript {
  file: string;
  gzipped: number;
}

export function readManifest(engineDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(engineDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** The JavaScript files a page loads, each with its gzipped size. */
export function pageScripts(engineDir: string, page: MeasuredPage, manifest = readManifest(engineDir)) {
  return filesForPage(manifest, PAGE_MODULES[page])
    .filter((file) => file.endsWith('.js'))
    .map((file): PageScript => ({
      file,
      gzipped: gzipSync(readFileSync(path.join(engineDir, file))).length,
    }));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function printBundleMap(engineDir: string): void {
  const manifest = readManifest(engineDir);
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!;
  const everyPage = new Set(filesForPage(manifest, []));
  const lazy = new Set(
    Object.values(PAGE_MODULES).flatMap((modules) => modules.map((module) => manifest[module].file)),
  );
  const role = (file: string) =>
    file === entry.file
      ? 'entry'
      : everyPage.has(file)
        ? 'every page'
        : lazy.has(file)
          ? 'lazy: this page'
          : 'imported by it';
  console.log('\n   Bundle map: JavaScript per page, gzipped, in load order');
  for (const page of Object.keys(PAGE_MODULES) as MeasuredPage[]) {
    const scripts = pageScripts(engineDir, page, manifest);
    const total = scripts.reduce((sum, script) => sum + script.gzipped, 0);
    console.log(`   ${page.padEnd(8)} ${scripts.length} files, ${kb(total)}`);
    for (const { file, gzipped } of scripts)
      console.log(`     ${kb(gzipped).padStart(9)}  ${file}   (${role(file)})`);
  }
  const modulesFile = path.join(engineDir, CHUNK_MODULES_FILE);
  if (!existsSync(modulesFile)) return;
  const chunks = JSON.parse(readFileSync(modulesFile, 'utf8')) as ChunkModules;
  // Sizes before minification: they rank the modules; the gzipped files above are what travels.
  console.log('   Largest modules of the files every page loads (bytes before minification)');
  const modules = [...everyPage]
    .flatMap((file) => (chunks[file] ?? []).map(([module, bytes]) => ({ module, bytes, file })))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 15);
  for (const { module, bytes, file } of modules)
    console.log(`     ${kb(bytes).padStart(9)}  ${module}   (${path.basename(file)})`);
}
