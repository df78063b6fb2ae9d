/** Personal data of sign-in (server/privacy/personalDataTypes.ts; docs/subscribers.md "Download my data"). */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

const CREDENTIAL = 'a credential (a token hash), not data about the person; the export never carries secrets';

export const authPersonalData: PersonalDataManifest = {
  slice: 'auth',
  tables: [
    {
      table: 'sessions',
      columns: ['user_id'],
      subject: 't.user_id = u.id',
      export: { notExported: CREDENTIAL },
      erase: { action: 'delete' },
      expire: { by: deleteExpiredRows, rule: 'deleted a week after it expired or was revoked' },
    },
    {
      table: 'login_tokens',
      columns: ['email', 'payload'],
      subject: `t.email = u.email or t.payload->>'userId' = u.id`,
      export: { notExported: CREDENTIAL },
      erase: { action: 'delete' },
      expire: { by: deleteExpiredRows, rule: 'deleted a day after it expired' },
    },
    {
      table: 'sso_sessions',
      columns: ['user_id'],
      subject: 't.user_id = u.id',
      export: { notExported: CREDENTIAL },
      erase: { action: 'delete' },
      expire: { by: deleteExpiredRows, rule: 'deleted when it expires, a week after it was revoked' },
    },
    {
      // No name says so, but a bucket is keyed by a client's address or a typed e-mail address.
      table: 'rate_limits',
      columns: ['bucket'],
      subject: null,
      export: { notExported: 'counters keyed by a network or e-mail address, no account; gone within a day' },
      erase: { action: 'keep', reason: 'no account reaches a counter; it goes within a day' },
      expire: { by: deleteExpiredRows, rule: 'deleted a day after its window' },
    },
  ],
};
