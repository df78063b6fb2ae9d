import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders of the repository, independent of the working directory the CLI is started from. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The tenant files; PORTAL_TENANTS_DIR moves them (a deployment's own folder, a test's variants). */
export const TENANTS_DIR = process.env.PORTAL_TENANTS_DIR
  ? path.resolve(process.env.PORTAL_TENANTS_DIR)
  : path.join(ROOT_DIR, 'tenants');
/**
 * What a command says of a tenant id it has no file of: "unknown tenant …" with the ids it knows,
 * null when the file exists. A mistyped id must not read as a tenant with nothing (no events, no
 * disabled endpoint).
 */
export function unknownTenant(id: string, since = ''): string | null {
  if (existsSync(path.join(TENANTS_DIR, `${id}.json`))) return null;
  const known = (existsSync(TENANTS_DIR) ? readdirSync(TENANTS_DIR) : [])
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length));
  const file = path.relative(process.cwd(), path.join(TENANTS_DIR, `${id}.json`));
  return `unknown tenant "${id}": no ${file}${since}. Known: ${known.join(', ') || 'none'}`;
}
export const ENGINE_DIR = path.join(ROOT_DIR, 'engine');
/** Built portals; PORTAL_DIST_DIR moves them (the end-to-end suites build into a temp folder). */
export const DIST_DIR = process.env.PORTAL_DIST_DIR
  ? path.resolve(process.env.PORTAL_DIST_DIR)
  : path.join(ROOT_DIR, 'dist');
export const ENGINE_BUILD_DIR = path.join(DIST_DIR, '.engine');
/** The studio's own build, where the server's /studio serves it from (server/studio/studioRoutes.ts). */
export const STUDIO_BUILD_DIR = path.join(DIST_DIR, '.studio');
export const DATA_DIR = path.join(ROOT_DIR, 'data');
export const OUTBOX_DIR = path.join(DATA_DIR, 'outbox');
