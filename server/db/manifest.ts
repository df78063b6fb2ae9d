/** The database's own tables (sessions, tokens, rate-limit windows); its housekeeping stays in server/main.ts. */
import type { FeatureManifest } from '../featureManifest';
import { databasePersonalData } from './personalData';

export const databaseManifest: FeatureManifest = {
  id: 'db',
  personalData: databasePersonalData,
};
