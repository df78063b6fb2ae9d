import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The studio's own Vite root: operator code, never part of the engine build. */
export const STUDIO_SOURCE_DIR = path.dirname(fileURLToPath(import.meta.url));

/** Missing, or older than a source file of the studio (so a changed studio is rebuilt on the next start). */
function isStale(outDir: string): boolean {
  const index = path.join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return readdirSync(STUDIO_SOURCE_DIR).some(
    (name) => /\.(tsx?|css|html)$/.test(name) && statSync(path.join(STUDIO_SOURCE_DIR, name)).mtimeMs > built,
  );
}

let building: Promise<void> | undefined;

/**
 * Builds the studio (React + @rjsf) as its own Vite entry into `outDir` (the server keeps it in
 * `<dist>/.studio`), once per process and only when it is missing, older than its sources, or
 * `force`: `portal studio` builds it at start, `/studio` under `portal dev` and the demo on the
 * first visit. The CLI hands it to the server, which never imports the studio
 * (docs/architecture.md "Layers").
 */
export function ensureStudioBuilt(outDir: string, options: { force?: boolean } = {}): Promise<void> {
  if (!options.force && !isStale(outDir)) return Promise.resolve();
  building ??= (async () => {
    const { build } = await import('vite');
    const react = (await import('@vitejs/plugin-react')).default;
    await build({
      root: STUDIO_SOURCE_DIR,
      base: '/studio/',
      configFile: false,
      logLevel: 'warn',
      plugins: [react()],
      build: {
        outDir,
        emptyOutDir: true,
        sourcemap: false,
        target: 'es2022',
        reportCompressedSize: false,
        chunkSizeWarningLimit: 2000,
      },
    });
  })().finally(() => {
    building = undefined;
  });
  return building;
}
