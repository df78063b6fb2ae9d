import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { byPosition, fileIssue } from './issues';
import { displayPath, knownTextKeys, loadThemePresets, REPO_ROOT } from './sources';
import type { ResolvedTenant, TenantIssue, ValidationContext } from './types';
import { validateTenantSource } from './validateTenant';
import { offsetOf, parseJson, positionAt } from './jsonSource';

export interface LoadTenantOptions extends ValidationContext {
  /** Repository root holding tenants/, themes/ and engine/; defaults to this repository. */
  rootDir?: string;
}

/** The tenant files of `rootDir/tenants`, sorted. */
export function tenantFilePaths(rootDir: string = REPO_ROOT): string[] {
  const dir = join(rootDir, 'tenants');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
}

/** An issue found across files, located in the file it is reported for. */
function locatedIssue(
  file: string,
  source: string,
  pointer: string,
  message: string,
  hint: string,
): TenantIssue {
  const parsed = parseJson(source);
  if (!parsed.ok) return { ...fileIssue(file, message, hint), pointer };
  const { line, column } = positionAt(parsed.source.lineStarts, offsetOf(parsed.source, pointer, 'value'));
  return { file, line, column, pointer, message, hint };
}

/**
 * A tenant file is settings and texts: the largest demo file is 19 KB. The studio takes no request
 * body above this either (server/studio/studioRoutes.ts), and the checks need not read more.
 */
export const TENANT_FILE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Validates tenant files (default: every tenants/*.json) and returns the valid ones with defaults
 * applied, plus every issue of every file at once: syntax, schema, cross-field rules, problems of
 * the theme presets, and rules across tenants (a host or id claimed twice). A tenant with any
 * issue is not returned. Relative paths are taken from the working directory.
 */
export function loadTenantFiles(
  paths?: string[],
  opts: LoadTenantOptions = {},
): { tenants: ResolvedTenant[]; issues: TenantIssue[]; warnings: TenantIssue[] } {
  const rootDir = opts.rootDir ?? REPO_ROOT;
  const issues: TenantIssue[] = [];
  const warnings: TenantIssue[] = [];
  const themePresets = opts.themePresets ?? loadThemePresets(rootDir, issues);
  const ctx: ValidationContext = {
    themePresets,
    knownTextKeys: opts.knownTextKeys ?? knownTextKeys(rootDir),
  };
  const files = (paths ?? tenantFilePaths(rootDir)).map((p) => resolve(p));

  const loaded: Array<{ file: string; source: string; tenant?: ResolvedTenant }> = [];
  for (const absolute of files) {
    const file = displayPath(absolute);
    let source: string;
    try {
      if (statSync(absolute).size > TENANT_FILE_MAX_BYTES) {
        issues.push(
          fileIssue(
            file,
            `the file is larger than ${TENANT_FILE_MAX_BYTES / 1024 / 1024} MB`,
            'a tenant file holds settings and texts; logos and images go to tenants/assets/',
          ),
        );
        continue;
      }
      source = readFileSync(absolute, 'utf8');
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'file not found'
          : `cannot read the file (${(error as Error).message})`;
      issues.push(
        fileIssue(file, reason, 'tenant files live in tenants/<id>.json; `portal new <id>` creates one'),
      );
      continue;
    }
    const result = validateTenantSource(file, source, ctx);
    issues.push(...result.issues);
    warnings.push(...result.warnings);
    loaded.push({ file, source, tenant: result.tenant });
  }

  // Across tenants: the server maps each host to one tenant and each id to one dist folder.
  const rejected = new Set<string>();
  const hostOwner = new Map<string, { id: string; file: string }>();
  const idOwner = new Map<string, string>();
  for (const entry of loaded) {
    if (!entry.tenant) continue;
    const { tenant, file, source } = entry;
    const otherFile = idOwner.get(tenant.id);
    if (otherFile) {
      issues.push(
        locatedIssue(
          file,
          source,
          '/id',
          `tenant id "${tenant.id}" is also used by ${otherFile}`,
          'load only one of them',
        ),
      );
      rejected.add(file);
    } else {
      idOwner.set(tenant.id, file);
    }
    tenant.hosts.forEach((host, index) => {
      const owner = hostOwner.get(host.toLowerCase());
      if (owner && owner.id !== tenant.id) {
        issues.push(
          locatedIssue(
            file,
            source,
            `/hosts/${index}`,
            `host "${host}" is also used by tenant "${owner.id}" (${owner.file})`,
            'a host name may belong to one tenant only',
          ),
        );
        rejected.add(file);
      } else if (!owner) {
        hostOwner.set(host.toLowerCase(), { id: tenant.id, file });
      }
    });
  }

  issues.sort(byPosition);
  const tenants = loaded.filter((e) => e.tenant && !rejected.has(e.file)).map((e) => e.tenant!);
  return { tenants, issues, warnings };
}
