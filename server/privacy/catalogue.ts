/**
 * The personal-data catalogue (docs/subscribers.md "Download my data": "The personal-data catalogue"): one
 * manifest per server slice, declared in the slice's own personalData.ts next to the code that
 * writes the rows, and named by the slice's feature manifest (server/<slice>/manifest.ts
 * `personalData`); derived here from the one list of features, server/features.ts. A slice that adds
 * a table holding personal data adds its declaration there; the catalogue test
 * (tests/server/privacy/personalDataCatalogue.int.test.ts) names every table it misses.
 */
import { featurePersonalData } from '../featureManifest';
import { SERVER_FEATURES } from '../features';
import type { PersonalDataManifest, PersonalDataTable } from './personalDataTypes';

export const PERSONAL_DATA_CATALOGUE: readonly PersonalDataManifest[] = featurePersonalData(SERVER_FEATURES);

/** Every declared table, with the slice that declares it. */
export const personalDataTables = (
  catalogue: readonly PersonalDataManifest[] = PERSONAL_DATA_CATALOGUE,
): Array<PersonalDataTable & { slice: string }> =>
  catalogue.flatMap((manifest) => manifest.tables.map((table) => ({ ...table, slice: manifest.slice })));
