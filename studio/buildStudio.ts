import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import type { RJSFSchema } from '@rjsf/utils';

/** The studio's own Vite root: operator code, never part of the engine build. */
export const STUDIO_SOURCE_DIR = path.dirname(fileURLToPath(import.meta.url));

/** The schema the studio's form is made from (served to the page as /studio/api/schema). */
const TENANT_SCHEMA = path.join(STUDIO_SOURCE_DIR, '..', 'schemas', 'tenant.schema.json');

/**
 * Missing, or older than a source file of the studio or the tenant schema its form checks are
 * compiled from (so a changed studio or schema is rebuilt on the next start).
 */
function isStale(outDir: string): boolean {
  const index = path.join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return (
    statSync(TENANT_SCHEMA).mtimeMs > built ||
    readdirSync(STUDIO_SOURCE_DIR).some(
      (name) =>
        /\.(tsx?|css|html)$/.test(name) && statSync(path.join(STUDIO_SOURCE_DIR, name)).mtimeMs > built,
    )
  );
}

/** What the studio imports its tabs' form checks as (studio/formValidators.ts). */
export const FORM_VALIDATORS_MODULE = 'virtual:studio-form-validators';

/**
 * The form's checks, compiled when the studio is built (@rjsf's precompiled validator): made in the
 * page, AJV compiles each check into a function from a string, which the studio's policy
 * (`script-src 'self'`, no `'unsafe-eval'`) refuses, and the form then could not tell which shape
 * of a field ("one for every language" or "one per language") the tenant file uses. One module per
 * settings tab, as each tab's form has its own schema (groups.ts groupSchema); their ids lie in
 * the studio folder, so the checks' imports of ajv's runtime resolve from there.
 */
export async function formValidatorsPlugin(): Promise<Plugin> {
  // Loaded here, not with the CLI: only a build of the studio needs the compiler.
  const { compileSchemaValidatorsCode } = await import('@rjsf/validator-ajv8/compileSchemaValidators');
  const { groupSchema, studioGroups } = await import('./groups');
  const schema = JSON.parse(readFileSync(TENANT_SCHEMA, 'utf8')) as RJSFSchema;
  const groups = studioGroups(schema);
  const tabModule = (id: string) => path.join(STUDIO_SOURCE_DIR, `.form-validators-${id}.cjs`);
  const index = path.join(STUDIO_SOURCE_DIR, '.form-validators.js');
  return {
    name: 'studio:form-validators',
    resolveId: (id) =>
      id === FORM_VALIDATORS_MODULE ? index : groups.some((g) => tabModule(g.id) === id) ? id : undefined,
    load(id) {
      if (id === index)
        return [
          ...groups.map((group, i) => `import tab${i} from ${JSON.stringify(tabModule(group.id))};`),
          `export default { ${groups.map((group, i) => `${JSON.stringify(group.id)}: tab${i}`).join(', ')} };`,
        ].join('\n');
      const group = groups.find((g) => tabModule(g.id) === id);
      return group ? compileSchemaValidatorsCode(groupSchema(schema, group)) : undefined;
    },
  };
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
      plugins: [react(), await formValidatorsPlugin()],
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
