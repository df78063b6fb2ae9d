/**
 * Personal data of the customer records (server/privacy/personalDataTypes.ts;
 * docs/subscribers.md "Download my data").
 */
import {
  ORDER_SYSTEM_EXPIRES,
  ORDER_SYSTEM_KEEPS,
  OWN_PARTNER,
  type PersonalDataManifest,
} from '../privacy/personalDataTypes';

export const businessPartnerPersonalData: PersonalDataManifest = {
  slice: 'business-partners',
  tables: [
    {
      table: 'business_partners',
      columns: [
        'bp_number',
        'salutation_code',
        'first_name',
        'last_name1',
        'company1',
        'street',
        'street_number',
        'zipcode',
        'city',
        'email_address',
        'phone_number',
        'date_of_birth',
        'details',
      ],
      subject: OWN_PARTNER,
      export: { file: 'business-partners.json' },
      erase: { action: 'keep', reason: ORDER_SYSTEM_KEEPS },
      expire: { notExpired: ORDER_SYSTEM_EXPIRES },
    },
  ],
};
