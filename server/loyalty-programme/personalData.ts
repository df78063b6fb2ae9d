/**
 * Personal data of the customer club (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Customer club").
 */
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

const AS_LONG_AS_THE_ACCOUNT = 'membership lasts as long as the account; deleting the account deletes it';

export const loyaltyPersonalData: PersonalDataManifest = {
  slice: 'loyalty-programme',
  tables: [
    {
      table: 'loyalty_members',
      columns: ['user_id', 'opted_in'],
      subject: 't.user_id = u.id',
      export: { file: 'loyalty.json' },
      erase: { action: 'delete' },
      expire: { notExpired: AS_LONG_AS_THE_ACCOUNT },
    },
    {
      table: 'loyalty_favorites',
      columns: ['user_id', 'reward_id'],
      subject: 't.user_id = u.id',
      export: { file: 'loyalty.json' },
      erase: { action: 'delete' },
      expire: { notExpired: AS_LONG_AS_THE_ACCOUNT },
    },
    {
      table: 'loyalty_claims',
      columns: ['user_id', 'code', 'reward_id'],
      subject: 't.user_id = u.id',
      export: { file: 'loyalty.json' },
      erase: { action: 'delete' },
      expire: { notExpired: AS_LONG_AS_THE_ACCOUNT },
    },
    {
      table: 'loyalty_codes',
      columns: ['claimed_by', 'code'],
      subject: 't.claimed_by = u.id',
      export: { file: 'loyalty.json' },
      // A code handed out stays taken (never handed out twice), without the account.
      erase: { action: 'anonymise', columns: ['claimed_by'] },
      expire: {
        notExpired:
          'a code handed out stays taken so that it is never handed out twice; without its account it names nobody',
      },
    },
  ],
  notPersonal: [
    { table: 'loyalty_rewards', reason: "the publisher's catalogue of rewards" },
    { table: 'loyalty_tiers', reason: "the publisher's tiers of the club" },
  ],
};
