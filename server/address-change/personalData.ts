/**
 * Personal data of dated address changes (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Download my data").
 */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const addressChangePersonalData: PersonalDataManifest = {
  slice: 'address-change',
  tables: [
    {
      table: 'future_addresses',
      columns: ['bp_number', 'user_id', 'address'],
      subject: 't.user_id = u.id',
      export: { file: 'business-partners.json' },
      // Like order_system_overlays (server/operator/personalData.ts): a change of the order
      // system's record that its event still speaks for; the partner's record is not the account's.
      erase: {
        action: 'keep',
        reason:
          "a dated change of the order system's record of the partner, whose contract outlives the account; its day applies it, a rejection removes it",
      },
      expire: { by: deleteExpiredRows, rule: 'deleted EVENT_RETENTION_DAYS after its day applied it' },
    },
  ],
};
