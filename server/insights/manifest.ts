/** Retention insights (docs/operators.md "Retention insights"). */
import type { FeatureManifest } from '../featureManifest';
import { insightsPersonalData } from './personalData';
import { startRetentionSummary } from '../jobs/retentionSummary';

export const insightsManifest: FeatureManifest = {
  id: 'insights',
  jobs: [
    {
      // The daily summary: closed days are summed so a year answers quickly (server/jobs/retentionSummary.ts).
      name: 'retention summary',
      start: ({ db, tenants, log }) => startRetentionSummary(db, { tenants, log }),
    },
  ],
  personalData: insightsPersonalData,
  events: ['offer_flow.started'],
};
