/**
 * Personal data of holiday services (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Download my data").
 */
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

const DELIVERY_INSTRUCTION =
  'a delivery instruction under the contract, carried out and billed by the order system (§257 HGB); it points at the anonymised account';

export const holidayServicePersonalData: PersonalDataManifest = {
  slice: 'holiday-service',
  tables: [
    {
      table: 'holiday_services',
      columns: ['user_id', 'address'],
      subject: 't.user_id = u.id',
      export: { file: 'subscriptions.json' },
      erase: { action: 'keep', reason: DELIVERY_INSTRUCTION },
      expire: { notExpired: DELIVERY_INSTRUCTION },
    },
  ],
};
