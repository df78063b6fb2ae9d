/**
 * The account events' record and webhooks. Its deliverer stays in server/main.ts with the other
 * platform jobs: it serves every feature's events, not one feature.
 */
import type { FeatureManifest } from '../featureManifest';
import { eventsPersonalData } from './personalData';

export const eventsManifest: FeatureManifest = {
  id: 'events',
  personalData: eventsPersonalData,
};
