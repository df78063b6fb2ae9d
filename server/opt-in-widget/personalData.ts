/**
 * Personal data of the opt-in widget (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Opt-in widget").
 */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const optInWidgetPersonalData: PersonalDataManifest = {
  slice: 'opt-in-widget',
  tables: [
    {
      table: 'opt_in_widget_signups',
      columns: ['salutation_code', 'first_name', 'last_name', 'email', 'mailbox', 'voucher_code'],
      subject: null,
      export: {
        notExported:
          "a visitor's sign-up, no account; an access request to the publisher finds it by the address",
      },
      erase: { action: 'keep', reason: 'no account reaches it' },
      expire: {
        by: deleteExpiredRows,
        rule: 'an unconfirmed sign-up goes a day after its link expired; a confirmed one stays, the proof of the consent (GDPR Art. 7(1))',
      },
    },
  ],
};
