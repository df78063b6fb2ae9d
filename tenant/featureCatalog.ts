import { readFileSync } from 'node:fs';
import type { FeatureCatalog } from '../engine/domain/featureCatalog';

const CATALOG_FILE = new URL('../schemas/generated/feature-catalog.json', import.meta.url);

let catalog: FeatureCatalog | undefined;

/**
 * The feature registry's facts (schemas/generated/feature-catalog.json, engine/domain/featureCatalog.ts):
 * which features exist, the flags that switch them, their screens and their text tables. The tenant
 * package and the server read these instead of importing the registry, which brings the engine's
 * screens with it (eslint.config.js layers). Read once per process.
 */
export function featureCatalog(): FeatureCatalog {
  if (!catalog) {
    const { $comment: _note, ...facts } = JSON.parse(readFileSync(CATALOG_FILE, 'utf8')) as FeatureCatalog & {
      $comment?: string;
    };
    catalog = facts;
  }
  return catalog;
}
