/**
 * Personal data of the contact form (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Download my data").
 */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const contactPersonalData: PersonalDataManifest = {
  slice: 'contact',
  tables: [
    {
      table: 'contact_messages',
      columns: ['user_id', 'contact_details', 'message', 'image_data', 'image_filename'],
      subject: 't.user_id = u.id',
      export: { file: 'contact-messages.json' },
      // Customer service has the message in its mailbox (mailed_to); the portal's copy goes.
      erase: { action: 'delete' },
      expire: {
        by: deleteExpiredRows,
        rule: 'deleted after EVENT_RETENTION_DAYS, with the event carrying it',
      },
    },
  ],
};
