/**
 * Personal data of the order system's side (server/privacy/personalDataTypes.ts; docs/going-live.md "Going
 * live with your order system").
 */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const operatorPersonalData: PersonalDataManifest = {
  slice: 'operator',
  tables: [
    {
      // A subscriber's change of an order-system record with the order system's values it replaced
      // (migration 023). Deleting the account must not take it away: the overlay is what puts the
      // order system's values back when it rejects the change, and what keeps the change on top of
      // the next import while it is pending — deleting it would leave the subscriber's value in the
      // publisher's record as if the order system had sent it (docs/going-live.md "Whose data is it"). It is
      // the partner's record, not the account's, and it ends when its event is answered or expires.
      table: 'order_system_overlays',
      columns: ['fields', 'base', 'record_key'],
      subject: `exists (select 1 from account_events e where e.tenant_id = t.tenant_id and e.id = t.event_id and e.user_id = u.id)`,
      export: { file: 'pending-changes.json' },
      erase: {
        action: 'keep',
        reason:
          "a change pending at the order system on the partner's record: deleting it would leave the subscriber's value in the record as the order system's, unrevertable",
      },
      expire: {
        by: deleteExpiredRows,
        rule: 'deleted when its account event expires; a confirmed change ends with the next version of the record',
      },
    },
    {
      table: 'operator_idempotency_keys',
      columns: ['response'],
      subject: null,
      export: {
        notExported: "the operator API's answer to an order system, kept to answer a retried request alike",
      },
      erase: { action: 'keep', reason: 'no account reaches it; it goes within a day' },
      expire: { by: deleteExpiredRows, rule: 'deleted a day after it was made' },
    },
    {
      table: 'operator_key_uses',
      columns: ['client'],
      subject: null,
      export: { notExported: "the order system's calls and its server's address, no subscriber's" },
      erase: { action: 'keep', reason: "the order system's server address, not a subscriber's" },
      expire: {
        notExpired:
          "the audit trail of an API key, kept with the key (deleted with it); the address is the order system's server",
      },
    },
  ],
  notPersonal: [
    { table: 'operator_keys', columns: ['name'], reason: 'the name an operator gave the key' },
    {
      table: 'change_acknowledgements',
      columns: ['mail_locale'],
      reason: 'the language of the rejection mail',
    },
  ],
};
