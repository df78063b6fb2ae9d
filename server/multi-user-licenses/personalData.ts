/**
 * Personal data of multi-user licences (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Multi-user licences").
 */
import { ORDER_SYSTEM_EXPIRES, OWN_PARTNER, type PersonalDataManifest } from '../privacy/personalDataTypes';

const HOLDERS_RECORD =
  "the licence holder's (a company's, a school's) record of who may read, managed by its licence manager; the licence stays the holder's when one licensee's account goes";

export const licensesPersonalData: PersonalDataManifest = {
  slice: 'multi-user-licenses',
  tables: [
    {
      table: 'licenses',
      columns: ['email', 'business_partner', 'bp_number', 'accepted_user_id'],
      subject: `t.accepted_user_id = u.id or ${OWN_PARTNER}`,
      export: { file: 'licences.json' },
      erase: { action: 'keep', reason: HOLDERS_RECORD },
      expire: { notExpired: ORDER_SYSTEM_EXPIRES },
    },
    {
      table: 'license_manager_appointments',
      columns: [
        'salutation_code',
        'first_name',
        'last_name1',
        'email',
        'appointed_by_user_id',
        'confirmed_user_id',
        'bp_number',
      ],
      subject: 't.appointed_by_user_id = u.id or t.confirmed_user_id = u.id',
      export: { file: 'licences.json' },
      erase: { action: 'keep', reason: HOLDERS_RECORD },
      expire: {
        notExpired:
          'the record of who manages the licences: it lasts as long as the licences; an unconfirmed one goes when the next manager is appointed',
      },
    },
  ],
};
