/** Personal data of single purchases and pending orders (server/privacy/personalDataTypes.ts). */
import {
  ORDER_SYSTEM_EXPIRES,
  ORDER_SYSTEM_KEEPS,
  OWN_PARTNER,
  type PersonalDataManifest,
} from '../privacy/personalDataTypes';

export const ordersPersonalData: PersonalDataManifest = {
  slice: 'orders',
  tables: [
    {
      table: 'purchase_orders',
      columns: ['details', 'package_info'],
      subject: `exists (select 1 from purchase_order_roles r where r.tenant_id = t.tenant_id and r.purchase_order_id = t.id
        and r.bp_number in (select ubp.bp_number from user_business_partners ubp where ubp.tenant_id = t.tenant_id and ubp.user_id = u.id))`,
      export: { file: 'orders.json' },
      erase: { action: 'keep', reason: ORDER_SYSTEM_KEEPS },
      expire: { notExpired: ORDER_SYSTEM_EXPIRES },
    },
    {
      table: 'purchase_order_roles',
      columns: ['bp_number'],
      subject: OWN_PARTNER,
      export: { file: 'orders.json' },
      erase: { action: 'keep', reason: ORDER_SYSTEM_KEEPS },
      expire: { notExpired: ORDER_SYSTEM_EXPIRES },
    },
    {
      table: 'pending_orders',
      columns: ['bp_number', 'title', 'order_number'],
      subject: OWN_PARTNER,
      export: { file: 'orders.json' },
      erase: { action: 'keep', reason: ORDER_SYSTEM_KEEPS },
      expire: { notExpired: ORDER_SYSTEM_EXPIRES },
    },
  ],
};
