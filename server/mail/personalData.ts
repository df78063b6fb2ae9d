/** Personal data of the mail queue (server/privacy/personalDataTypes.ts). */
import { deleteFinishedMails } from '../store/mailQueueStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const mailPersonalData: PersonalDataManifest = {
  slice: 'mail',
  tables: [
    {
      table: 'mail_queue',
      columns: ['payload', 'mail'],
      subject: null,
      export: { notExported: "mails sent to the account's own address: the subscriber has them" },
      erase: {
        action: 'keep',
        reason:
          'a mail queued to the address still goes out (the deletion confirmation among them); a failed one forgets its body',
      },
      expire: {
        by: deleteFinishedMails,
        rule: 'deleted FINISHED_MAIL_RETENTION_MS after it was sent, skipped or failed',
      },
    },
  ],
};
