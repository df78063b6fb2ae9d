/** The database's own tables (server/privacy/personalDataTypes.ts). */
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const databasePersonalData: PersonalDataManifest = {
  slice: 'db',
  tables: [],
  notPersonal: [{ table: 'schema_migrations', reason: "the migrations' file names" }],
};
