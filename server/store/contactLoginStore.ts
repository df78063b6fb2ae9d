/**
 * SQL of the contact form's order-number and zip-code login (portal-core.md §4 contact behaviour):
 * the business partners holding a role on the subscriptions with an order number, with their zip
 * code and the account (if any) that already speaks for them. Tenant-scoped.
 */
import type { Queryable } from '../db/database';

export interface OrderNumberParty {
  subscriptionId: string;
  publication: string;
  bpNumber: string;
  role: string;
  zipcode: string | null;
  /** The partner's own e-mail address on record. */
  email: string | null;
  linkedEmail: string | null;
}

export async function partiesOfOrderNumber(
  db: Queryable,
  tenantId: string,
  orderNumber: string,
): Promise<OrderNumberParty[]> {
  return db.query<OrderNumberParty>(
    `select s.id as "subscriptionId", s.publication, sr.bp_number::text as "bpNumber", sr.role, bp.zipcode,
            address_on_record(bp.tenant_id, bp.bp_number, contact_email(bp.email_address, bp.details)) as email,
            (select u.email from user_business_partners ubp
               join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id
              where ubp.tenant_id = s.tenant_id and ubp.bp_number = sr.bp_number
              order by u.created_at limit 1) as "linkedEmail"
       from subscriptions s
       join subscription_roles sr on sr.tenant_id = s.tenant_id and sr.subscription_id = s.id
       join business_partners bp on bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number
      where s.tenant_id = $1 and s.order_number = lpad($2, 10, '0')
      order by s.id, array_position(array['AG', 'WE', 'RE', 'LV'], sr.role), sr.bp_number`,
    [tenantId, orderNumber],
  );
}
