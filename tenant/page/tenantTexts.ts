import { readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { catalogTextTables } from '../../engine/domain/featureCatalog';
import { fallbackLocaleOf, LOCALES, type Locale } from '../../engine/domain/locales';
import type { TextOverrides } from '../../schemas/generated/tenant';
import { featureCatalog } from '../featureCatalog';
import { REPO_ROOT } from '../sources';

const ENGINE_DIR = path.join(REPO_ROOT, 'engine');

type TextTable = Record<Locale, Record<string, string>>;

/** A table per locale of the schema's list, empty: a locale a texts.json lacks has no texts of it. */
const emptyTables = (): TextTable => Object.fromEntries(LOCALES.map((locale) => [locale, {}])) as TextTable;

const parsedTables = new Map<string, { mtimeMs: number; table: TextTable }>();

/**
 * A base text table, parsed once while the file stays unchanged: a build of many tenants reads each
 * table once, while `portal dev` still sees an edited texts.json on the next page load.
 */
function readTexts(file: string): TextTable {
  if (!existsSync(file)) return emptyTables();
  const { mtimeMs } = statSync(file);
  const cached = parsedTables.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.table;
  const table = JSON.parse(readFileSync(file, 'utf8')) as TextTable;
  parsedTables.set(file, { mtimeMs, table });
  return table;
}

/**
 * The texts a tenant's portal ships (CONVENTIONS.md rule 7): the base tables the feature catalog
 * names for the tenant (the shell's, the account kit's, each enabled feature's), then the tenant's
 * overrides by key. A tenant without a feature ships none of its texts.
 */
export function tenantTexts(tenant: { features: readonly string[]; texts?: TextOverrides }): TextTable {
  const base = baseTexts(
    catalogTextTables(featureCatalog(), tenant.features).map((file) => path.join(ENGINE_DIR, file)),
  );
  const merged = { ...base };
  for (const locale of Object.keys(merged) as Locale[]) {
    const overrides = Object.entries(tenant.texts?.[locale] ?? {}).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    // A locale without overrides is the shared (frozen) base table itself: its page JSON is made once.
    if (overrides.length) merged[locale] = { ...base[locale], ...Object.fromEntries(overrides) };
  }
  return merged;
}

/**
 * A built page's texts: per offered locale, the complete base table the page fetches
 * from a file shared by every tenant with the same features, and the tenant's own texts the page
 * carries inline, laid over it. The base table of a locale is filled, key by key, from the fallback
 * locale's base (engine/domain/locales.ts `fallbackLocaleOf`, the lookup of engine/core/translation.tsx),
 * so a page needs no second file; an override in the fallback locale of a key filled that way
 * travels with the locale's overrides. File and overrides together give the page exactly what
 * `tenantTexts` plus the fallback lookup gave it.
 */
export function splitTenantTexts(
  tenant: {
    features: readonly string[];
    texts?: TextOverrides;
    locales: readonly string[];
    defaultLocale: string;
  },
  /** Base tables by feature set for one build: the files are not read (nor their dates checked) again. */
  buildCache?: Map<string, TextTable>,
): Array<{ locale: Locale; base: Readonly<Record<string, string>>; overrides: Record<string, string> }> {
  const files = catalogTextTables(featureCatalog(), tenant.features).map((file) =>
    path.join(ENGINE_DIR, file),
  );
  const key = files.join('\n');
  let base = buildCache?.get(key);
  if (!base) {
    base = baseTexts(files);
    buildCache?.set(key, base);
  }
  return splitTexts(base, tenant.texts, tenant.locales as Locale[], fallbackLocaleOf(tenant) as Locale);
}

/** splitTenantTexts over given base tables (exported for tests with tables that miss keys). */
export function splitTexts(
  base: TextTable,
  texts: TextOverrides | undefined,
  locales: readonly Locale[],
  fallback: Locale,
): Array<{ locale: Locale; base: Readonly<Record<string, string>>; overrides: Record<string, string> }> {
  const overridesOf = (locale: Locale) =>
    Object.fromEntries(
      Object.entries(texts?.[locale] ?? {}).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
  const fallbackOverrides = overridesOf(fallback);
  return locales.map((locale) => {
    const overrides = overridesOf(locale);
    if (locale !== fallback) {
      for (const [key, text] of Object.entries(fallbackOverrides))
        if (!(key in base[locale]) && !(key in overrides)) overrides[key] = text;
    }
    return { locale, base: filledBase(base, locale, fallback), overrides };
  });
}

/** A locale's base table with the keys it misses taken from the fallback locale, once per table pair. */
const filledBases = new WeakMap<object, Map<string, Readonly<Record<string, string>>>>();
function filledBase(base: TextTable, locale: Locale, fallback: Locale): Readonly<Record<string, string>> {
  const own = base[locale];
  if (locale === fallback) return own;
  let byFallback = filledBases.get(own);
  if (!byFallback) filledBases.set(own, (byFallback = new Map()));
  let filled = byFallback.get(fallback);
  if (!filled) {
    const table = { ...own };
    // Keys missing here come after the locale's own, so a complete table keeps its order (and file).
    for (const [key, text] of Object.entries(base[fallback])) if (!(key in table)) table[key] = text;
    filled = Object.keys(table).length === Object.keys(own).length ? own : Object.freeze(table);
    byFallback.set(fallback, filled);
  }
  return filled;
}

const mergedBases = new Map<string, { tables: TextTable[]; merged: TextTable }>();

/** The base tables of a set of features merged, once per set (tenants with the same features share it). */
function baseTexts(files: string[]): TextTable {
  const tables = files.map(readTexts);
  const key = files.join('\n');
  const cached = mergedBases.get(key);
  if (cached && cached.tables.every((table, index) => table === tables[index])) return cached.merged;
  const merged = emptyTables();
  for (const locale of Object.keys(merged) as Locale[]) {
    for (const table of tables) Object.assign(merged[locale], table[locale]);
    Object.freeze(merged[locale]);
  }
  mergedBases.set(key, { tables, merged });
  return merged;
}
