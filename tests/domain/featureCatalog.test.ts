/**
 * The feature catalog (schemas/generated/feature-catalog.json) is what the tenant package and the
 * server know of the registry: its rules must give the answers the registry gives.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  catalogTextTables,
  enabledCatalogFeatures,
  featuresSwitchedBy,
  isSwitchedOn,
  type FeatureCatalog,
} from '../../engine/domain/featureCatalog';
import { FEATURE_FLAGS } from '../../engine/domain/featureFlags';
import {
  enabledFeatures,
  FEATURES,
  featuresSwitchedBy as registrySwitchedBy,
  textTables,
} from '../../engine/features';
import { featureCatalogOf } from '../../scripts/featureCatalog';
import { featureCatalog } from '../../tenant/featureCatalog';

const tenantFlagSets: string[][] = [
  [],
  ['faq'],
  ['holiday-break', 'issue-complaint'],
  ['loyalty-programme', 'membership', 'cancellation'],
  [...FEATURE_FLAGS],
  ...['stadtkurier', 'northern-review', 'technikwelt', 'gartenfreunde'].map(
    (id) =>
      (
        JSON.parse(readFileSync(new URL(`../../tenants/${id}.json`, import.meta.url), 'utf8')) as {
          features: string[];
        }
      ).features,
  ),
];

describe('the feature catalog', () => {
  const catalog: FeatureCatalog = featureCatalog();

  it('is the registry written out (run `npm run types:generate` when this fails)', () => {
    expect(catalog).toEqual(featureCatalogOf(FEATURES));
  });

  it('switches on the features the registry switches on, for any set of flags', () => {
    for (const flags of tenantFlagSets)
      expect(enabledCatalogFeatures(catalog, flags).map((f) => f.id)).toEqual(
        enabledFeatures(flags).map((f) => f.id),
      );
  });

  it('names the features each flag switches and the text tables a tenant ships, as the registry does', () => {
    for (const flag of FEATURE_FLAGS)
      expect(featuresSwitchedBy(catalog, flag)).toEqual(registrySwitchedBy(flag));
    expect(catalogTextTables(catalog)).toEqual(textTables());
    for (const flags of tenantFlagSets) expect(catalogTextTables(catalog, flags)).toEqual(textTables(flags));
  });

  it('keeps a feature without flags always on and one with flags off until a flag is on', () => {
    expect(isSwitchedOn([], [])).toBe(true);
    expect(isSwitchedOn(undefined, [])).toBe(true);
    expect(isSwitchedOn(['holiday-break', 'holiday-redirect'], ['faq'])).toBe(false);
    expect(isSwitchedOn(['holiday-break', 'holiday-redirect'], ['holiday-redirect'])).toBe(true);
  });

  it('marks the menu entry a tenant setting also decides (the loyalty programme: loyalty.showInNavbar, portal-core.md §2)', () => {
    const withSetting = catalog.features
      .filter((feature) => feature.menu?.setting)
      .map((feature) => feature.id);
    expect(withSetting).toEqual(
      FEATURES.filter((feature) => feature.menu?.when).map((feature) => feature.id),
    );
    expect(withSetting).toContain('loyalty-programme');
  });
});
