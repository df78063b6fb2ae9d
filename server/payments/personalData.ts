/**
 * Personal data of online payments (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Download my data").
 */
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

const TAX_RECORD =
  'a record of a payment the publisher must keep for tax law (§147 AO: ten years); it points at the anonymised account';

export const paymentsPersonalData: PersonalDataManifest = {
  slice: 'payments',
  tables: [
    {
      table: 'payments',
      columns: ['user_id', 'details', 'description'],
      subject: 't.user_id = u.id',
      export: { file: 'payments.json' },
      erase: { action: 'keep', reason: TAX_RECORD },
      expire: { notExpired: TAX_RECORD },
    },
  ],
  notPersonal: [
    {
      table: 'payment_refunds',
      reason:
        "refunds of online payments: amounts and the provider's ids, reached through the payment (whose account the export names them under, in payments.json), kept with it for tax law",
    },
  ],
};
