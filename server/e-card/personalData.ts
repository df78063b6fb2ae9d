/** Personal data of e-cards (server/privacy/personalDataTypes.ts; docs/subscribers.md "Download my data"). */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const eCardPersonalData: PersonalDataManifest = {
  slice: 'e-card',
  tables: [
    {
      table: 'e_cards',
      columns: ['user_id', 'from_name', 'to_name', 'to_email', 'message'],
      subject: 't.user_id = u.id',
      export: { file: 'e-cards.json' },
      erase: { action: 'delete' },
      expire: { by: deleteExpiredRows, rule: 'deleted E_CARD_RETENTION_DAYS after it went out or failed' },
    },
  ],
  notPersonal: [{ table: 'e_cards', columns: ['template_name'], reason: "the publisher's card design" }],
};
