/** Personal data of "Download my data" itself (server/privacy/personalDataTypes.ts). */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const dataExportPersonalData: PersonalDataManifest = {
  slice: 'data-export',
  tables: [
    {
      table: 'data_exports',
      columns: ['user_id'],
      subject: 't.user_id = u.id',
      export: {
        notExported:
          "a link's token hash; the request itself is the event data_export.requested in account-events.json",
      },
      erase: { action: 'delete' },
      expire: { by: deleteExpiredRows, rule: 'deleted a day after the link expired' },
    },
  ],
};
