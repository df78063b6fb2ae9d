import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { TENANTS_DIR } from '../paths';
import { portalCommand } from '../../server/runtime/portalCommand';

/**
 * The files of the named tenants: an id is `<TENANTS_DIR>/<id>.json` (PORTAL_TENANTS_DIR moves
 * the folder), a name ending in .json is a file; none names every file of TENANTS_DIR.
 */
export function tenantFiles(names: string[] = []): string[] {
  return names.length
    ? names.map((name) => (name.endsWith('.json') ? name : path.join(TENANTS_DIR, `${name}.json`)))
    : !existsSync(TENANTS_DIR)
      ? []
      : readdirSync(TENANTS_DIR)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => path.join(TENANTS_DIR, name));
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
