/**
 * What validation checks tenant files against, read from the repository: the base text keys of
 * the shell and of every feature, and the theme presets.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ThemePreset } from '../schemas/generated/theme';
import { catalogTextTables } from '../engine/domain/featureCatalog';
import { featureCatalog } from './featureCatalog';
import type { TenantIssue } from './types';
import { validateThemeSource } from './validateTheme';

/** The repository root, independent of the working directory. */
export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A path as issues show it: relative to the working directory when below it, with forward slashes. */
export function displayPath(absolutePath: string): string {
  const rel = relative(process.cwd(), absolutePath);
  return (rel && !rel.startsWith('..') ? rel : absolutePath).split('\\').join('/');
}

function readTextKeys(file: string): string[] {
  const table = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
  return Object.values(table).flatMap((texts) => Object.keys(texts ?? {}));
}

/**
 * Every text key a tenant may override, in any locale: those of the base tables the feature
 * catalog names (the registry's facts: the shell's, the account kit's and every registered
 * feature's). A folder under engine/features/ that is not registered adds no keys.
 */
export function knownTextKeys(rootDir: string = REPO_ROOT): Set<string> {
  const keys = new Set<string>();
  for (const table of catalogTextTables(featureCatalog())) {
    const file = join(rootDir, 'engine', table);
    if (existsSync(file)) readTextKeys(file).forEach((key) => keys.add(key));
  }
  return keys;
}

/**
 * The valid presets of themes/*.json by name (file name without .json). Problems of invalid
 * presets are pushed to `issues` when given; such a preset is left out.
 */
export function loadThemePresets(
  rootDir: string = REPO_ROOT,
  issues?: TenantIssue[],
): Record<string, ThemePreset> {
  const dir = join(rootDir, 'themes');
  const presets: Record<string, ThemePreset> = {};
  if (!existsSync(dir)) return presets;
  for (const entry of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const file = join(dir, entry);
    const result = validateThemeSource(displayPath(file), readFileSync(file, 'utf8'));
    if (result.preset) presets[entry.slice(0, -'.json'.length)] = result.preset;
    issues?.push(...result.issues);
  }
  return presets;
}
