/**
 * Personal data of the retention insights' daily summary (server/privacy/personalDataTypes.ts;
 * migration 032): none. Its rows are counts per tenant and day — flows, publication and reason
 * codes, experiment ids, prices summed per currency — with no account, subscription or event id,
 * so nothing in them leads back to a subscriber.
 */
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

const reason =
  'counts and sums per tenant and day by publication, reason code, offer experiment and currency; no account, subscription or event id';

export const insightsPersonalData: PersonalDataManifest = {
  slice: 'insights',
  tables: [],
  notPersonal: [
    { table: 'retention_summary_days', reason: 'the days summed, per tenant' },
    { table: 'retention_daily_flows', reason },
    { table: 'retention_daily_revenue', reason },
  ],
};
