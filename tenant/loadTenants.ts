import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { byPosition, fileIssue } from './issues';
import { hostName } from './hostNames';
import { displayPath, knownTextKeys, loadThemePresets, REPO_ROOT } from './sources';
import type { ResolvedTenant, TenantIssue, ValidationContext } from './types';
import { validateTenantSource } from './validateTenant';
import { offsetOf, parseJson, parseJsonValue, positionAt } from './jsonSource';

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

/** A tenant file's id and hosts, read leniently: a file with errors of its own still claims them. */
function claimsOf(source: string): { id?: string; hosts: string[] } {
  try {
    const value = parseJsonValue(source) as { id?: unknown; hosts?: unknown } | null;
    return {
      id: typeof value?.id === 'string' ? value.id : undefined,
      hosts: Array.isArray(value?.hosts) ? value.hosts.filter((h): h is string => typeof h === 'string') : [],
    };
  } catch {
    return { hosts: [] };
  }
}

/** The other tenant files in the folders of `files`, each with its source, for their claims alone. */
function neighboursOf(files: readonly string[]): Array<{ file: string; source: string }> {
  const asked = new Set(files);
  const neighbours: Array<{ file: string; source: string }> = [];
  for (const dir of new Set(files.map((file) => dirname(file)))) {
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const absolute = join(dir, name);
      if (asked.has(absolute)) continue;
      try {
        if (statSync(absolute).size > TENANT_FILE_MAX_BYTES) continue;
        neighbours.push({ file: displayPath(absolute), source: readFileSync(absolute, 'utf8') });
      } catch {
        // unreadable: it is not served either
      }
    }
  }
  return neighbours;
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

type ClaimingEntry = { file: string; source: string; tenant?: ResolvedTenant };

/**
 * Across tenants: the server maps each host to one tenant and each id to one dist folder. A file
 * with errors of its own still claims its id and hosts, and so does every other file beside the
 * ones asked for (`portal validate <id>`), read for that alone: a clash is said whichever file is
 * checked, and whatever else is wrong with the other one. Returns the issues of `checked` and the
 * files of `checked` that lose a clash.
 */
function crossTenantClashes(
  checked: readonly ClaimingEntry[],
  neighbours: readonly ClaimingEntry[],
): { issues: TenantIssue[]; rejected: Set<string> } {
  const issues: TenantIssue[] = [];
  const rejected = new Set<string>();
  // Every claimant of a host, in the order read: a clash names each of the others.
  const hostClaims = new Map<string, Array<{ id: string; file: string }>>();
  const idOwner = new Map<string, string>();
  const claim = (entry: ClaimingEntry, report: boolean) => {
    const { file, source } = entry;
    const { id, hosts } = entry.tenant ?? claimsOf(source);
    if (id === undefined) return;
    const otherFile = idOwner.get(id);
    if (otherFile) {
      if (report)
        issues.push(
          locatedIssue(
            file,
            source,
            '/id',
            `tenant id "${id}" is also used by ${otherFile}`,
            'load only one of them',
          ),
        );
      rejected.add(file);
    } else {
      idOwner.set(id, file);
    }
    hosts.forEach((host, index) => {
      const name = hostName(host);
      const claims = hostClaims.get(name) ?? [];
      const others = claims.filter((owner) => owner.id !== id);
      if (others.length > 0) {
        if (report)
          issues.push(
            locatedIssue(
              file,
              source,
              `/hosts/${index}`,
              `host "${host}" is also used by ${others.map((o) => `tenant "${o.id}" (${o.file})`).join(' and ')}`,
              // Whichever file is read second is told; the one to change may be the other.
              `a host name may belong to one tenant only: take it out of this file or out of ${others.map((o) => o.file).join(' and ')}`,
            ),
          );
        rejected.add(file);
      }
      hostClaims.set(name, [...claims, { id, file }]);
    });
  };
  for (const neighbour of neighbours) claim(neighbour, false);
  for (const entry of checked) claim(entry, true);
  return { issues, rejected };
}

/**
 * The clashes of one tenant file's text not yet written (the studio's draft) with every other
 * tenant file of its folder, as `portal validate` reports them: an id or a host another tenant
 * already has. `absolute` is where the file is (or will be); `file` how issues name it.
 */
export function clashesWithOtherTenants(
  absolute: string,
  file: string,
  source: string,
  tenant?: ResolvedTenant,
): TenantIssue[] {
  return crossTenantClashes([{ file, source, tenant }], neighboursOf([resolve(absolute)])).issues;
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
        fileIssue(
          file,
          reason,
          // The folder asked (PORTAL_TENANTS_DIR moves it), as the operator wrote it.
          `tenant files live in ${join(dirname(file), '<id>.json')}; \`portal new <id>\` creates one`,
        ),
      );
      continue;
    }
    const result = validateTenantSource(file, source, ctx);
    issues.push(...result.issues);
    warnings.push(...result.warnings);
    loaded.push({ file, source, tenant: result.tenant });
  }

  const clashes = crossTenantClashes(loaded, paths ? neighboursOf(files) : []);
  issues.push(...clashes.issues);
  const rejected = clashes.rejected;

  issues.sort(byPosition);
  const tenants = loaded.filter((e) => e.tenant && !rejected.has(e.file)).map((e) => e.tenant!);
  return { tenants, issues, warnings };
}
