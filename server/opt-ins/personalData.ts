/** Personal data of opt-ins (server/privacy/personalDataTypes.ts; docs/subscribers.md "Download my data"). */
import { ORDER_SYSTEM_EXPIRES, OWN_PARTNER, type PersonalDataManifest } from '../privacy/personalDataTypes';

export const optInsPersonalData: PersonalDataManifest = {
  slice: 'opt-ins',
  tables: [
    {
      table: 'opt_ins',
      columns: ['bp_number', 'type', 'value'],
      subject: OWN_PARTNER,
      export: { file: 'opt-ins.json' },
      erase: {
        action: 'keep',
        reason:
          "the partner's consents in the order system's record, and their proof (GDPR Art. 7(1)); the partner stays the publisher's customer",
      },
      expire: { notExpired: ORDER_SYSTEM_EXPIRES },
    },
  ],
};
