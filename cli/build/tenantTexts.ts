import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { FEATURES, isFeatureEnabled } from '../../engine/features';
import type { Locale } from '../../engine/core/portalConfig';
import { ENGINE_DIR } from '../paths';

type TextTable = Record<Locale, Record<string, string>>;

function readTexts(file: string): TextTable {
  if (!existsSync(file)) return { 'de-DE': {}, 'en-GB': {} };
  return JSON.parse(readFileSync(file, 'utf8')) as TextTable;
}

/**
 * The texts a tenant's portal ships (CONVENTIONS.md rule 7): the shell's base texts, the base texts
 * of each enabled feature, then the tenant's overrides by key. A tenant without a feature ships
 * none of its texts.
 */
export function tenantTexts(tenant: { features: readonly string[]; texts?: Partial<Record<Locale, Record<string, string>>> }): TextTable {
  const tables = [
    readTexts(path.join(ENGINE_DIR, 'core', 'texts.json')),
    ...FEATURES.filter((feature) => isFeatureEnabled(feature, tenant.features)).map((feature) =>
      readTexts(path.join(ENGINE_DIR, 'features', feature.id, 'texts.json')),
    ),
  ];
  const merged: TextTable = { 'de-DE': {}, 'en-GB': {} };
  for (const locale of Object.keys(merged) as Locale[]) {
    for (const table of tables) Object.assign(merged[locale], table[locale]);
    Object.assign(merged[locale], tenant.texts?.[locale] ?? {});
  }
  return merged;
}
