/**
 * Personal data of account events (server/privacy/personalDataTypes.ts;
 * docs/going-live.md "Account events and webhooks").
 */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const eventsPersonalData: PersonalDataManifest = {
  slice: 'events',
  tables: [
    {
      table: 'account_events',
      columns: ['user_id', 'data'],
      subject: 't.user_id = u.id',
      export: { file: 'account-events.json' },
      erase: {
        action: 'keep',
        reason:
          'the changes sent to the publisher\'s systems: an order system that has not read or answered one yet still needs it (docs/going-live.md "The change feed"); the retention ends it',
      },
      expire: {
        by: deleteExpiredRows,
        rule: 'deleted EVENT_RETENTION_DAYS after dispatch when every delivery ended (longer while unacknowledged, INSIGHT_EVENT_RETENTION_DAYS for the counted kinds)',
      },
    },
  ],
};
