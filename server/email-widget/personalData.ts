/**
 * Personal data of the e-mail widget (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "E-mail widget").
 */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const emailWidgetPersonalData: PersonalDataManifest = {
  slice: 'email-widget',
  tables: [
    {
      table: 'email_widget_links',
      columns: ['email'],
      subject: null,
      export: {
        notExported:
          "a visitor's address proven by its link, no account; an access request to the publisher finds it by the address",
      },
      erase: { action: 'keep', reason: 'no account reaches it' },
      expire: {
        by: deleteExpiredRows,
        rule: 'an unconfirmed link goes a day after it expired; a confirmed one stays, the proof of the opt-in (GDPR Art. 7(1))',
      },
    },
  ],
  notPersonal: [
    { table: 'email_widget_rewards', columns: ['file_name'], reason: "the publisher's reward file" },
  ],
};
