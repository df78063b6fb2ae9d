/**
 * Personal data of subscriptions (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Download my data").
 */
import {
  ORDER_SYSTEM_EXPIRES,
  ORDER_SYSTEM_KEEPS,
  OWN_PARTNER,
  type PersonalDataManifest,
} from '../privacy/personalDataTypes';

export const subscriptionPersonalData: PersonalDataManifest = {
  slice: 'subscription',
  tables: [
    {
      // details: payment details (IBAN), delivery notes, the order system's fields of the contract.
      table: 'subscriptions',
      columns: ['details'],
      subject: `exists (select 1 from subscription_roles r where r.tenant_id = t.tenant_id and r.subscription_id = t.id
        and r.bp_number in (select ubp.bp_number from user_business_partners ubp where ubp.tenant_id = t.tenant_id and ubp.user_id = u.id))`,
      export: { file: 'subscriptions.json' },
      erase: { action: 'keep', reason: ORDER_SYSTEM_KEEPS },
      expire: { notExpired: ORDER_SYSTEM_EXPIRES },
    },
    {
      table: 'subscription_roles',
      columns: ['bp_number'],
      subject: OWN_PARTNER,
      export: { file: 'subscriptions.json' },
      erase: { action: 'keep', reason: ORDER_SYSTEM_KEEPS },
      expire: { notExpired: ORDER_SYSTEM_EXPIRES },
    },
  ],
};
