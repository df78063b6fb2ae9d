import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { TENANTS_DIR } from '../paths';
import { portalCommand } from '../../server/runtime/portalCommand';

/**
 * The files of the named tenants: an id is `<TENANTS_DIR>/<id>.json` (PORTAL_TENANTS_DIR moves
 * the folder), a name ending in .json is a file, a folder (that is no id) names every .json file in
 * it; none names every file of TENANTS_DIR.
 */
export function tenantFiles(names: string[] = []): string[] {
  if (names.length === 0) return jsonFilesIn(TENANTS_DIR);
  const files = names.flatMap((name) => {
    if (name.endsWith('.json')) return [name];
    // A path (`tenants/`, `/srv/portal/tenants`): a folder, or the file it names is not found.
    if (name.includes('/') || name.includes(path.sep)) return isFolder(name) ? folderFiles(name) : [name];
    const file = path.join(TENANTS_DIR, `${name}.json`);
    // A tenant's id wins over a folder of the same name in the working directory.
    return !existsSync(file) && isFolder(name) ? folderFiles(name) : [file];
  });
  // Named twice (a folder and a file in it): checked once, not as a clash with itself.
  const seen = new Set<string>();
  return files.filter((file) => !seen.has(path.resolve(file)) && Boolean(seen.add(path.resolve(file))));
}

/** A folder named on the command line holds tenant files, or nothing was asked to be checked. */
function folderFiles(folder: string): string[] {
  const files = jsonFilesIn(folder);
  if (files.length === 0) throw new Error(`${folder} holds no tenant file (no *.json in it)`);
  return files;
}

function isFolder(name: string): boolean {
  try {
    return statSync(name).isDirectory();
  } catch {
    return false;
  }
}

function jsonFilesIn(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => path.join(folder, name));
}

/**
 * Loads the named tenants (ids or file paths; all when none) and refuses to go on when any has an
 * error: nothing is built or served from an invalid tenant file.
 */
export async function loadValidTenants(names: string[] = []) {
  const { loadTenantFiles, formatIssueWithHint } = await import('../../tenant');
  const { tenants, issues } = await loadTenantFiles(tenantFiles(names));
  if (issues.length) {
    // Each problem with its fix, as `portal validate` prints them.
    const count = `${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}`;
    throw new Error(
      `${count} in tenant files:\n${issues.map(formatIssueWithHint).join('\n')}\nFix them, then run again (${portalCommand()} validate shows them too).`,
    );
  }
  return tenants;
}
