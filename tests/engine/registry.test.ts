import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURES, isFeatureEnabled } from '../../engine/features';
import { FEATURE_FLAGS } from '../../engine/domain/featureFlags';

const ENGINE = path.resolve(__dirname, '../../engine');

describe('feature registry', () => {
  it('names each feature after its folder, which exists', () => {
    for (const feature of FEATURES) expect(existsSync(path.join(ENGINE, 'features', feature.id, 'index.ts'))).toBe(true);
  });

  it('switches features only by flags of the spec list', () => {
    for (const feature of FEATURES) if (feature.flag) expect(FEATURE_FLAGS).toContain(feature.flag);
  });

  it('points every menu item at one of the feature own routes', () => {
    for (const feature of FEATURES.filter((f) => f.menu)) {
      expect(feature.routes.map((r) => `/${r.path}`)).toContain(feature.menu!.to);
    }
  });

  it('has base texts in both locales with the same keys, all prefixed by the feature id', () => {
    for (const feature of FEATURES) {
      const file = path.join(ENGINE, 'features', feature.id, 'texts.json');
      if (!existsSync(file)) continue;
      const texts = JSON.parse(readFileSync(file, 'utf8'));
      expect(Object.keys(texts['de-DE']).sort()).toEqual(Object.keys(texts['en-GB']).sort());
      for (const key of Object.keys(texts['en-GB'])) expect(key.startsWith(`${feature.id}.`)).toBe(true);
    }
  });

  it('enables unflagged features always and flagged ones only when the tenant lists the flag', () => {
    expect(isFeatureEnabled({ id: 'x', routes: [] }, [])).toBe(true);
    expect(isFeatureEnabled({ id: 'x', flag: 'faq', routes: [] }, [])).toBe(false);
    expect(isFeatureEnabled({ id: 'x', flag: 'faq', routes: [] }, ['faq'])).toBe(true);
  });
});
