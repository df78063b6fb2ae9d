/**
 * Personal data of the account slice (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Download my data").
 */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

const KEPT_FOR_ACCOUNTING =
  'a record of the accounting: kept like the invoice it asks for (§147 AO, §257 HGB: ten years), pointing at the anonymised account';

export const accountPersonalData: PersonalDataManifest = {
  slice: 'account',
  tables: [
    {
      table: 'users',
      columns: ['email', 'display_name', 'first_name', 'last_name', 'sso_id', 'password_hash'],
      subject: 't.id = u.id',
      export: { file: 'account.json' },
      // The row stays (records kept for accounting point at its id), emptied (account-flows.md §4 "SSO delete").
      erase: {
        action: 'anonymise',
        columns: ['email', 'display_name', 'first_name', 'last_name', 'sso_id', 'password_hash'],
      },
      expire: {
        notExpired: 'an account lives until its holder deletes it; the README sets no limit of inactivity',
      },
    },
    {
      table: 'user_business_partners',
      columns: ['user_id', 'bp_number'],
      subject: 't.user_id = u.id',
      export: { file: 'business-partners.json' },
      erase: { action: 'delete' },
      expire: { notExpired: 'the link lasts as long as the account; deleting the account deletes it' },
    },
    {
      table: 'retired_addresses',
      columns: ['user_id', 'email'],
      subject: 't.user_id = u.id',
      export: { file: 'account.json' },
      erase: { action: 'delete' },
      expire: {
        notExpired:
          'an address the account moved away from stays retired as long as the account, so the old mailbox never signs anyone in for its partners',
      },
    },
    {
      table: 'download_keys',
      columns: ['user_id'],
      subject: 't.user_id = u.id',
      export: { notExported: 'a short-lived key (a credential) to a file the export carries itself' },
      erase: { action: 'delete' },
      expire: { by: deleteExpiredRows, rule: 'deleted when it expires' },
    },
    {
      table: 'invoice_requests',
      columns: ['user_id', 'invoice_number', 'subject_id'],
      subject: 't.user_id = u.id',
      export: { file: 'payments.json' },
      erase: { action: 'keep', reason: KEPT_FOR_ACCOUNTING },
      expire: { notExpired: KEPT_FOR_ACCOUNTING },
    },
    {
      table: 'account_activity',
      columns: ['user_id', 'details', 'subject_id'],
      subject: 't.user_id = u.id',
      export: { file: 'account-activity.json' },
      erase: { action: 'delete' },
      expire: {
        by: deleteExpiredRows,
        rule: 'deleted after EVENT_RETENTION_DAYS, with the account events saying the same',
      },
    },
  ],
  notPersonal: [
    {
      table: 'download_keys',
      columns: ['file_name'],
      reason: "the name of the publisher's file (an invoice, an issue)",
    },
  ],
};
