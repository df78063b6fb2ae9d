import type { Queryable } from '../db/database';

/** A business partner with a role on a subscription of an order number, and the account speaking for it. */
export interface OrderNumberPartner {
  subscriptionId: string;
  /** The subscription's publication: the flows it may enter follow its blacklists (portal-core.md §6). */
  publication: string;
  bpNumber: string;
  role: string;
  lastName: string | null;
  company: string | null;
  zipcode: string | null;
  email: string | null;
  accountId: string | null;
  accountEmail: string | null;
}

/** Ordering party first, then goods recipient (the partners an order-number login may speak for). */
export async function partnersOfOrderNumber(
  db: Queryable,
  tenantId: string,
  orderNumber: string,
): Promise<OrderNumberPartner[]> {
  return db.query<OrderNumberPartner>(
    `select s.id as "subscriptionId", s.publication, sr.bp_number::text as "bpNumber", sr.role, bp.last_name1 as "lastName", bp.company1 as company,
            bp.zipcode, address_on_record(bp.tenant_id, bp.bp_number, contact_email(bp.email_address, bp.details)) as email,
            u.id as "accountId", u.email as "accountEmail"
       from subscriptions s
       join subscription_roles sr on sr.tenant_id = s.tenant_id and sr.subscription_id = s.id and sr.role in ('AG', 'WE')
       join business_partners bp on bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number
       left join lateral (
         select u.id, u.email from user_business_partners ubp
           join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id
          where ubp.tenant_id = bp.tenant_id and ubp.bp_number = bp.bp_number
          order by u.created_at limit 1) u on true
      where s.tenant_id = $1 and s.order_number = lpad($2, 10, '0')
      order by array_position(array['AG', 'WE'], sr.role), s.id`,
    [tenantId, orderNumber],
  );
}

/** Whether one of the business partners the account speaks for has this zip code. */
export async function accountHasZipCode(
  db: Queryable,
  tenantId: string,
  userId: string,
  zipcode: string,
): Promise<boolean> {
  const rows = await db.query(
    `select 1 from user_business_partners ubp
       join business_partners bp on bp.tenant_id = ubp.tenant_id and bp.bp_number = ubp.bp_number
      where ubp.tenant_id = $1 and ubp.user_id = $2
        and lower(replace(bp.zipcode, ' ', '')) = lower(replace($3, ' ', ''))
      limit 1`,
    [tenantId, userId, zipcode],
  );
  return rows.length > 0;
}

/**
 * Of these business partners, those for which the address is on record: their own e-mail address,
 * or the address of an account that already speaks for them. A partner sign-in link may make its
 * account speak only for these (an account is never linked to an address nobody proved).
 */
export async function partnersOnRecordFor(
  db: Queryable,
  tenantId: string,
  email: string,
  bpNumbers: readonly string[],
): Promise<string[]> {
  if (bpNumbers.length === 0) return [];
  const rows = await db.query<{ bpNumber: string }>(
    `select bp.bp_number::text as "bpNumber" from business_partners bp
      where bp.tenant_id = $1 and bp.bp_number::text = any($2::text[])
        and ((lower(contact_email(bp.email_address, bp.details)) = $3
              and address_on_record(bp.tenant_id, bp.bp_number, contact_email(bp.email_address, bp.details)) is not null)
             or exists (select 1 from user_business_partners ubp
                          join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id
                         where ubp.tenant_id = bp.tenant_id and ubp.bp_number = bp.bp_number and u.email = $3))
      order by bp.bp_number`,
    [tenantId, [...bpNumbers], email],
  );
  return rows.map((row) => row.bpNumber);
}

/**
 * Bulk renewal's login (account-flows.md §2): the business partners with this last name and zip
 * code for which the address is on record (their own e-mail address, or an account speaking for them).
 */
export async function partnersByEmailNameAndZip(
  db: Queryable,
  tenantId: string,
  email: string,
  lastName: string,
  zipcode: string,
): Promise<string[]> {
  const rows = await db.query<{ bpNumber: string }>(
    `select bp.bp_number::text as "bpNumber" from business_partners bp
      where bp.tenant_id = $1
        and lower(replace(bp.zipcode, ' ', '')) = lower(replace($4, ' ', ''))
        and lower(btrim(coalesce(bp.last_name1, ''))) = lower(btrim($3))
        and ((lower(contact_email(bp.email_address, bp.details)) = $2
              and address_on_record(bp.tenant_id, bp.bp_number, contact_email(bp.email_address, bp.details)) is not null)
             or exists (select 1 from user_business_partners ubp
                          join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id
                         where ubp.tenant_id = bp.tenant_id and ubp.bp_number = bp.bp_number and u.email = $2))
      order by bp.bp_number`,
    [tenantId, email, lastName, zipcode],
  );
  return rows.map((row) => row.bpNumber);
}

/**
 * Business partners whose address on record is this one (a subscriber the order system brought
 * in): a sign-in link sent there creates the account from the mailbox. With `notLinkedTo`, only
 * those that account does not speak for yet (the order system brought them in after the account
 * was made), leaving out any whose link to it the order system rejected (its word on that link
 * stands).
 */
export async function partnersWithAddressOnRecord(
  db: Queryable,
  tenantId: string,
  email: string,
  notLinkedTo?: { userId: string },
): Promise<string[]> {
  const notLinked = notLinkedTo
    ? `and not exists (select 1 from user_business_partners ubp
                        where ubp.tenant_id = bp.tenant_id and ubp.user_id = $3 and ubp.bp_number = bp.bp_number)
       and not exists (select 1 from change_acknowledgements a
                         join account_events e on e.tenant_id = a.tenant_id and e.id = a.event_id
                        where a.tenant_id = bp.tenant_id and a.status = 'rejected'
                          and e.type = 'subscription.linked' and e.data->>'userId' = $3::text
                          and e.data->>'bpNumber' = bp.bp_number::text)`
    : '';
  const rows = await db.query<{ bpNumber: string }>(
    `select bp.bp_number::text as "bpNumber" from business_partners bp
      where bp.tenant_id = $1 and lower(contact_email(bp.email_address, bp.details)) = $2
        and address_on_record(bp.tenant_id, bp.bp_number, contact_email(bp.email_address, bp.details)) is not null
        ${notLinked}
      order by bp.bp_number limit 50`,
    notLinkedTo
      ? [tenantId, email.trim().toLowerCase(), notLinkedTo.userId]
      : [tenantId, email.trim().toLowerCase()],
  );
  return rows.map((row) => row.bpNumber);
}
