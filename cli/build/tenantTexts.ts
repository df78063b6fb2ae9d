import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { textTables } from '../../engine/features';
import type { Locale } from '../../engine/core/portalConfig';
import type { TextOverrides } from '../../schemas/generated/tenant';
import { ENGINE_DIR } from '../paths';

type TextTable = Record<Locale, Record<string, string>>;

function readTexts(file: string): TextTable {
  if (!existsSync(file)) return { 'de-DE': {}, 'en-GB': {} };
  return JSON.parse(readFileSync(file, 'utf8')) as TextTable;
}

/**
 * The texts a tenant's portal ships (CONVENTIONS.md rule 7): the base tables the feature registry
 * names for the tenant (the shell's, the account kit's, each enabled feature's), then the tenant's
 * overrides by key. A tenant without a feature ships none of its texts.
 */
export function tenantTexts(tenant: { features: readonly string[]; texts?: TextOverrides }): TextTable {
  const tables = textTables(tenant.features).map((file) => readTexts(path.join(ENGINE_DIR, file)));
  const merged: TextTable = { 'de-DE': {}, 'en-GB': {} };
  for (const locale of Object.keys(merged) as Locale[]) {
    for (const table of tables) Object.assign(merged[locale], table[locale]);
    for (const [key, text] of Object.entries(tenant.texts?.[locale] ?? {})) if (text !== undefined) merged[locale][key] = text;
  }
  return merged;
}
