/**
 * Personal data of complaints (server/privacy/personalDataTypes.ts; docs/subscribers.md "Download my data").
 */
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

const CLAIM =
  'a claim under the contract and the compensation granted for it, which the publisher must be able to prove (§257 HGB); it points at the anonymised account';

export const complaintPersonalData: PersonalDataManifest = {
  slice: 'issue-complaint',
  tables: [
    {
      table: 'complaints',
      columns: ['user_id', 'issue', 'reason', 'compensation'],
      subject: 't.user_id = u.id',
      export: { file: 'subscriptions.json' },
      erase: { action: 'keep', reason: CLAIM },
      expire: { notExpired: CLAIM },
    },
  ],
  notPersonal: [{ table: 'complaints', columns: ['address_changed'], reason: 'a flag, no address' }],
};
