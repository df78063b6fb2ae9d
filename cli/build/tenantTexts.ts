import { readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { textTables } from '../../engine/features';
import type { Locale } from '../../engine/core/portalConfig';
import type { TextOverrides } from '../../schemas/generated/tenant';
import { ENGINE_DIR } from '../paths';

type TextTable = Record<Locale, Record<string, string>>;

const parsedTables = new Map<string, { mtimeMs: number; table: TextTable }>();

/**
 * A base text table, parsed once while the file stays unchanged: a build of many tenants reads each
 * table once (issue 15), while `portal dev` still sees an edited texts.json on the next page load.
 */
function readTexts(file: string): TextTable {
  if (!existsSync(file)) return { 'de-DE': {}, 'en-GB': {} };
  const { mtimeMs } = statSync(file);
  const cached = parsedTables.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.table;
  const table = JSON.parse(readFileSync(file, 'utf8')) as TextTable;
  parsedTables.set(file, { mtimeMs, table });
  return table;
}

/**
 * The texts a tenant's portal ships (CONVENTIONS.md rule 7): the base tables the feature registry
 * names for the tenant (the shell's, the account kit's, each enabled feature's), then the tenant's
 * overrides by key. A tenant without a feature ships none of its texts.
 */
export function tenantTexts(tenant: { features: readonly string[]; texts?: TextOverrides }): TextTable {
  const base = baseTexts(textTables(tenant.features).map((file) => path.join(ENGINE_DIR, file)));
  const merged = { ...base };
  for (const locale of Object.keys(merged) as Locale[]) {
    const overrides = Object.entries(tenant.texts?.[locale] ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined);
    // A locale without overrides is the shared (frozen) base table itself: its page JSON is made once.
    if (overrides.length) merged[locale] = { ...base[locale], ...Object.fromEntries(overrides) };
  }
  return merged;
}

const mergedBases = new Map<string, { tables: TextTable[]; merged: TextTable }>();

/** The base tables of a set of features merged, once per set (tenants with the same features share it). */
function baseTexts(files: string[]): TextTable {
  const tables = files.map(readTexts);
  const key = files.join('\n');
  const cached = mergedBases.get(key);
  if (cached && cached.tables.every((table, index) => table === tables[index])) return cached.merged;
  const merged: TextTable = { 'de-DE': {}, 'en-GB': {} };
  for (const locale of Object.keys(merged) as Locale[]) {
    for (const table of tables) Object.assign(merged[locale], table[locale]);
    Object.freeze(merged[locale]);
  }
  mergedBases.set(key, { tables, merged });
  return merged;
}
