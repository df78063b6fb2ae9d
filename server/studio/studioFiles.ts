import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { displayPath, REPO_ROOT } from '../../tenant/sources';
import { newTenantTemplate } from '../../tenant/template';
import { TENANT_FILE_MAX_BYTES } from '../../tenant/loadTenants';
import { parseJsonValue } from '../../tenant/jsonSource';
import { badRequest, notFound } from '../http/errors';

/**
 * The tenant files the studio edits: tenants/ of the repository, or PORTAL_TENANTS_DIR (the
 * studio's journey edits a copy in a temp folder; an operator may point it at another checkout).
 */
export function studioTenantsDir(): string {
  return process.env.PORTAL_TENANTS_DIR
    ? path.resolve(process.env.PORTAL_TENANTS_DIR)
    : path.join(REPO_ROOT, 'tenants');
}

/** The same rule as `portal new`: the file name is the tenant id; nothing else reaches the disk. */
const FILE_ID = /^[a-z][a-z0-9-]{1,40}$/;

export function fileIdOf(value: unknown): string {
  if (typeof value !== 'string' || !FILE_ID.test(value)) {
    throw badRequest(
      'invalid_tenant_id',
      'A tenant file is named by its id: lower-case letters, digits and hyphens, starting with a letter, for example "city-herald".',
    );
  }
  return value;
}

export function tenantFilePath(fileId: unknown): string {
  return path.join(studioTenantsDir(), `${fileIdOf(fileId)}.json`);
}

/**
 * How issues and notices name the file, as `portal validate` prints it: relative to the working
 * directory when below it (`tenants/<id>.json` in the repository), else the whole path of the
 * folder PORTAL_TENANTS_DIR names.
 */
export function displayName(fileId: string): string {
  return displayPath(tenantFilePath(fileId));
}

export function listTenantFiles(): Array<{ id: string; name?: string }> {
  const dir = studioTenantsDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const id = name.slice(0, -'.json'.length);
      try {
        const parsed = parseJsonValue(readFileSync(path.join(dir, name), 'utf8')) as { name?: unknown };
        return { id, name: typeof parsed.name === 'string' ? parsed.name : undefined };
      } catch {
        return { id };
      }
    });
}

/** The file's text, or (for a tenant started in the studio) what `portal new <id>` would write. */
export function readTenantSource(
  fileId: string,
  options: { orNew?: boolean } = {},
): { source: string; exists: boolean } {
  const file = tenantFilePath(fileId);
  if (existsSync(file)) {
    // As `portal validate` and the server: a file larger than a tenant file can be is not read.
    if (statSync(file).size > TENANT_FILE_MAX_BYTES) throw tooLarge(fileId);
    return { source: readFileSync(file, 'utf8'), exists: true };
  }
  if (!options.orNew) throw notFound(`There is no tenant file ${displayName(fileId)}.`);
  return { source: newTenantTemplate(fileId, studioTenantsDir()), exists: false };
}

export async function writeTenantSource(fileId: string, source: string): Promise<void> {
  // Written indented, a file can outgrow the request that brought it: one the server would not load is not written.
  if (Buffer.byteLength(source) > TENANT_FILE_MAX_BYTES) throw tooLarge(fileId);
  await writeFile(tenantFilePath(fileId), source);
}

const tooLarge = (fileId: string) =>
  badRequest(
    'tenant_file_too_large',
    `${displayName(fileId)} would be larger than ${TENANT_FILE_MAX_BYTES / 1024 / 1024} MB: a tenant file holds settings and texts; logos and images go to tenants/assets/.`,
  );
