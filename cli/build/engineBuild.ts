import react from '@vitejs/plugin-react';
import { build, type Manifest } from 'vite';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ENGINE_DIR } from '../paths';

/**
 * Builds the engine once for every tenant (DESIGN.md "Building tenants"). Relative asset URLs
 * (`base: './'`) let the same files work under `/` and `/t/<id>/`; the server fills in <base href>.
 */
export async function buildEngine(outDir: string): Promise<{ manifest: Manifest; template: string }> {
  await build({
    root: ENGINE_DIR,
    base: './',
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: {
      outDir,
      emptyOutDir: true,
      manifest: true,
      sourcemap: false,
      target: 'es2022',
      reportCompressedSize: false,
    },
  });
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const template = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  return { manifest, template };
}

/**
 * The files a tenant needs, following Vite's manifest: everything statically reachable from the
 * entry, plus the lazy screens of the tenant's enabled features and what they import. A screen's
 * feature is the folder it lives in (`features/<id>/…`).
 */
export function filesForTenant(manifest: Manifest, enabledFeatureIds: ReadonlySet<string>): Set<string> {
  const files = new Set<string>();
  const visited = new Set<string>();
  const visit = (key: string) => {
    if (visited.has(key)) return;
    visited.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    files.add(chunk.file);
    chunk.css?.forEach((file) => files.add(file));
    chunk.assets?.forEach((file) => files.add(file));
    chunk.imports?.forEach(visit);
    for (const dynamicKey of chunk.dynamicImports ?? []) {
      const featureId = /^features\/([^/]+)\//.exec(dynamicKey)?.[1];
      if (featureId === undefined || enabledFeatureIds.has(featureId)) visit(dynamicKey);
    }
  };
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('engine build has no entry in its manifest');
  visit(entry[0]);
  return files;
}
