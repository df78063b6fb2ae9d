/**
 * Personal data of accepted offers (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Download my data").
 */
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

const CONTRACT_DECLARATION =
  "the subscriber's declaration under the contract, which the publisher must be able to prove (commercial correspondence, §257 HGB: six years); it points at the anonymised account";

export const offersPersonalData: PersonalDataManifest = {
  slice: 'offers',
  tables: [
    {
      table: 'offer_acceptances',
      columns: ['user_id', 'cancel_reason', 'upgrade_time'],
      subject: 't.user_id = u.id',
      export: { file: 'subscriptions.json' },
      erase: { action: 'keep', reason: CONTRACT_DECLARATION },
      expire: { notExpired: CONTRACT_DECLARATION },
    },
  ],
};
