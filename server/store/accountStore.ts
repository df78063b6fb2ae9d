/**
 * SQL for the state the account calls keep (migration 002): once-a-day invoice requests, download
 * keys, the activity record, order attributes, linking partners to accounts, and the business
 * partners list. Tenant-scoped like every store.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';
import type { BusinessPartner } from '../../schemas/generated/business-partner';
import type { Role } from '../../schemas/generated/subscription';
import { localizedDetails, type Translations } from './localizedDetails';
import type { BusinessPartnerDetails } from './rows';

// --- invoice requests --------------------------------------------------------------------------

export type InvoiceSubjectKind = 'subscription' | 'purchase_order';

/**
 * Records the request of the day; false when this invoice was already requested today (the
 * primary key holds it, so two instances racing still record one).
 */
export async function recordInvoiceRequest(
  db: Queryable,
  row: {
    tenantId: string;
    userId: string;
    kind: InvoiceSubjectKind;
    subjectId: string;
    invoiceNumber: string;
    day: string;
    status: string;
  },
): Promise<boolean> {
  const inserted = await db.query(
    `insert into invoice_requests (tenant_id, user_id, subject_kind, subject_id, invoice_number, requested_on, status)
     values ($1, $2, $3, $4, $5, $6::date, $7)
     on conflict do nothing
     returning 1`,
    [row.tenantId, row.userId, row.kind, row.subjectId, row.invoiceNumber, row.day, row.status],
  );
  return inserted.length === 1;
}

// --- download keys -----------------------------------------------------------------------------

/**
 * Download keys: short-lived (10 minutes, portal-core.md §3 "Download
 * response"), bound to the user who asked and single-use. The key is stored hashed; serving a file
 * deletes its key in the same statement that finds it, so two requests racing get one file.
 */
export const DOWNLOAD_KEY_MINUTES = 10;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export interface DownloadGrant {
  kind: 'delivered_issue' | 'purchase_order' | 'gift_certificate';
  subjectId: string;
  item: string;
  fileName: string;
  userId: string;
}

export async function createDownloadKey(
  db: Queryable,
  tenantId: string,
  grant: DownloadGrant,
  now: Date,
): Promise<string> {
  const key = randomBytes(24).toString('base64url');
  await db.query(
    `insert into download_keys (tenant_id, key_hash, user_id, kind, subject_id, item, file_name, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8::timestamptz + make_interval(mins => $9))`,
    [
      tenantId,
      hashKey(key),
      grant.userId,
      grant.kind,
      grant.subjectId,
      grant.item,
      grant.fileName,
      now.toISOString(),
      DOWNLOAD_KEY_MINUTES,
    ],
  );
  return key;
}

/**
 * Spends a key of this user: the grant behind it while it has not expired, and the key is gone.
 * A key of another user (or of no one) is left as it is, so nobody who learns a key can spend it
 * before its owner.
 */
export async function consumeDownloadKey(
  db: Queryable,
  tenantId: string,
  key: string,
  userId: string,
  now: Date,
): Promise<DownloadGrant | null> {
  const rows = await db.query<{
    kind: DownloadGrant['kind'];
    subject_id: string;
    item: string;
    file_name: string;
    user_id: string;
  }>(
    `delete from download_keys
      where tenant_id = $1 and key_hash = $2 and user_id = $3 and expires_at > $4::timestamptz
      returning kind, subject_id, item, file_name, user_id`,
    [tenantId, hashKey(key), userId, now.toISOString()],
  );
  const row = rows[0];
  return row
    ? {
        kind: row.kind,
        subjectId: row.subject_id,
        item: row.item,
        fileName: row.file_name,
        userId: row.user_id,
      }
    : null;
}

// --- order attributes --------------------------------------------------------------------------

/**
 * Sets (or adds) one order attribute of a subscription in its details, and answers the
 * subscription's attributes as the database now holds them (the changed one last); null when the
 * subscription is gone.
 */
export async function setOrderAttribute(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  type: string,
  value: string,
): Promise<Array<{ type: string; value: string }> | null> {
  const [row] = await db.query<{ attributes: Array<{ type: string; value: string }> }>(
    `update subscriptions
        set details = jsonb_set(details, '{orderAttributes}',
              coalesce((select jsonb_agg(a) from jsonb_array_elements(coalesce(details->'orderAttributes', '[]'::jsonb)) a
                         where a->>'type' <> $3), '[]'::jsonb)
              || jsonb_build_array(jsonb_build_object('type', $3::text, 'value', $4::text)))
      where tenant_id = $1 and id = $2
      returning details->'orderAttributes' as attributes`,
    [tenantId, subscriptionId, type, value],
  );
  return row?.attributes ?? null;
}

// --- linking -----------------------------------------------------------------------------------

export interface LinkCandidate {
  subscriptionId: string;
  orderNumber: string;
  publication: string;
  orderStatus: string;
  salesDocumentType: string | null;
  roles: Array<{ bpNumber: string; role: Role }>;
}

/** Subscriptions with this order number (narrowed to a publication when given). */
export async function findSubscriptionsByOrderNumber(
  db: Queryable,
  tenantId: string,
  orderNumber: string,
  publication: string | null,
): Promise<LinkCandidate[]> {
  const rows = await db.query<{
    id: string;
    order_number: string;
    publication: string;
    order_status: string;
    sales_document_type: string | null;
    roles: Array<{ bpNumber: string; role: Role }>;
  }>(
    `select s.id, s.order_number::text as order_number, s.publication, s.order_status,
            s.details->>'salesDocumentType' as sales_document_type,
            coalesce((select jsonb_agg(jsonb_build_object('bpNumber', r.bp_number::text, 'role', r.role))
                        from subscription_roles r where r.tenant_id = s.tenant_id and r.subscription_id = s.id), '[]'::jsonb) as roles
       from subscriptions s
      where s.tenant_id = $1 and s.order_number = $2 and ($3::text is null or s.publication = $3)
      order by s.id`,
    [tenantId, orderNumber, publication],
  );
  return rows.map((row) => ({
    subscriptionId: row.id,
    orderNumber: row.order_number,
    publication: row.publication,
    orderStatus: row.order_status,
    salesDocumentType: row.sales_document_type,
    roles: row.roles,
  }));
}

export interface PartnerForLink {
  bpNumber: string;
  lastName: string | null;
  company: string | null;
  zipcode: string | null;
  email: string | null;
  /** E-mail addresses of the accounts the partner is linked to. */
  linkedAccounts: Array<{ userId: string; email: string }>;
  /** How many subscriptions the partner holds a role on. */
  subscriptionCount: number;
}

export async function findPartnerForLink(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
): Promise<PartnerForLink | null> {
  const rows = await db.query<{
    bp_number: string;
    last_name1: string | null;
    company1: string | null;
    zipcode: string | null;
    email: string | null;
    accounts: Array<{ userId: string; email: string }>;
    subscriptions: string;
  }>(
    `select bp.bp_number::text as bp_number, bp.last_name1, bp.company1, bp.zipcode,
            address_on_record(bp.tenant_id, bp.bp_number, contact_email(bp.email_address, bp.details)) as email,
            coalesce((select jsonb_agg(jsonb_build_object('userId', u.id, 'email', u.email) order by u.email)
                        from user_business_partners ubp join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id
                       where ubp.tenant_id = bp.tenant_id and ubp.bp_number = bp.bp_number), '[]'::jsonb) as accounts,
            (select count(distinct r.subscription_id) from subscription_roles r
              where r.tenant_id = bp.tenant_id and r.bp_number = bp.bp_number)::text as subscriptions
       from business_partners bp
      where bp.tenant_id = $1 and bp.bp_number = $2`,
    [tenantId, bpNumber],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    bpNumber: row.bp_number,
    lastName: row.last_name1,
    company: row.company1,
    zipcode: row.zipcode,
    email: row.email,
    linkedAccounts: row.accounts,
    subscriptionCount: Number(row.subscriptions),
  };
}

/** Another account of the tenant with this e-mail, if any. */
export async function findAccountByEmail(
  db: Queryable,
  tenantId: string,
  email: string,
): Promise<{ id: string; email: string } | null> {
  const rows = await db.query<{ id: string; email: string }>(
    'select id, email from users where tenant_id = $1 and email = $2',
    [tenantId, email.trim().toLowerCase()],
  );
  return rows[0] ?? null;
}

/**
 * Links the partner to the account. Nothing is put on record for the partner: its e-mail address is
 * the order system's, and an address it names receives the partner's sign-in links
 * (docs/architecture.md "Sign-in safety").
 */
export async function linkPartnerToUser(
  db: Queryable,
  tenantId: string,
  userId: string,
  bpNumber: string,
): Promise<void> {
  await db.query(
    `insert into user_business_partners (tenant_id, user_id, bp_number) values ($1, $2, $3) on conflict do nothing`,
    [tenantId, userId, bpNumber],
  );
}

// --- business partners list --------------------------------------------------------------------

interface PartnerRow {
  bp_number: string;
  salutation_code: string | null;
  first_name: string | null;
  last_name1: string | null;
  company1: string | null;
  street: string | null;
  street_number: string | null;
  zipcode: string | null;
  city: string | null;
  country_code: string | null;
  email_address: string | null;
  phone_number: string | null;
  date_of_birth: string | null;
  details: Record<string, unknown>;
  own: boolean;
  subscriptions: Array<{
    subscriptionId: string;
    orderNumber: string;
    displayName: string;
    publication: string;
    roles: Role[];
    translations: Translations<{ displayName: string }> | null;
  }>;
}

export type BusinessPartnerListEntry = BusinessPartner & {
  /** Whether the partner is linked to the account itself (else a party of one of its subscriptions). */
  own: boolean;
  subscriptions: Array<{
    subscriptionId: string;
    orderNumber: string;
    displayName: string;
    publication: string;
    roles: Role[];
  }>;
};

/** The details that are part of a partner's name and postal address (schemas/api/business-partner.schema.json). */
const PARTNER_ADDRESS_DETAILS = [
  'salutation',
  'title',
  'titleAcademic',
  'titleCodeAcademic',
  'lastName2',
  'company2',
  'jobTitle',
  'department',
  'streetSuffix',
  'streetNumberSuffix',
  'addressLine1',
  'addressLine2',
  'addressLine3',
] as const satisfies readonly (keyof BusinessPartnerDetails)[];

/**
 * Every detail the account's own partners are shown with: the name and address, and the holiday
 * addresses, ways to reach them and a licence person's state. Other fields an order system keeps
 * in the details (schemas/api/order-system-business-partner.schema.json keeps them) are its own,
 * not the subscriber's page's.
 */
const OWN_PARTNER_DETAILS = [
  ...PARTNER_ADDRESS_DETAILS,
  'validFrom',
  'validTo',
  'info',
  'listOfCommunication',
  'bpHolidayAddress',
  'status',
  'reactivatable',
  'confirmed',
  'invitationAccepted',
  'academicYear',
] as const satisfies readonly (keyof BusinessPartnerDetails)[];

const detailsOf = (d: BusinessPartnerDetails, keys: readonly (keyof BusinessPartnerDetails)[]) =>
  Object.fromEntries(keys.filter((key) => d[key] !== undefined).map((key) => [key, d[key]]));

/**
 * The business partners of the account (§2 "business-partners list"): the partners linked to it, and
 * the other parties of subscriptions it orders (the ordering party sees the goods recipient's and
 * invoice recipient's address, §6): those of the contract, not a licence manager or a licence's
 * user, whom the licences page administers and whose postal address is none of the orderer's.
 * Each with the subscriptions it holds a role on, among those the user sees. The e-mail shown is the
 * contact e-mail (portal-core.md §3: the explicit address, else the default WW entry).
 */
export async function listBusinessPartnersForUser(
  db: Queryable,
  tenantId: string,
  userId: string,
  opts: {
    locale?: string;
    /**
     * Every field the order system keeps in an own partner's details, not only those the page
     * shows: the data export's copy of what the portal keeps (GDPR Art. 15(3)).
     */
    allDetails?: boolean;
  } = {},
): Promise<BusinessPartnerListEntry[]> {
  const rows = await db.query<PartnerRow>(
    `with own as (
       select bp_number from user_business_partners where tenant_id = $1 and user_id = $2
     ), visible_subs as (
       select distinct r.subscription_id from subscription_roles r join own on own.bp_number = r.bp_number where r.tenant_id = $1
     ), ordered_subs as (
       select distinct r.subscription_id from subscription_roles r join own on own.bp_number = r.bp_number
        where r.tenant_id = $1 and r.role = 'AG'
     ), partners as (
       select bp_number, true as own from own
       union
       select r.bp_number, false from subscription_roles r join ordered_subs o on o.subscription_id = r.subscription_id
        where r.tenant_id = $1 and r.role in ('WE', 'RE') and not r.via_license
          and r.bp_number not in (select bp_number from own)
     )
     select bp.bp_number::text as bp_number, bp.salutation_code, bp.first_name, bp.last_name1, bp.company1, bp.street,
            bp.street_number, bp.zipcode, bp.city, bp.country_code,
            contact_email(bp.email_address, bp.details) as email_address, bp.phone_number,
            to_char(bp.date_of_birth, 'YYYY-MM-DD') as date_of_birth, bp.details, bool_or(p.own) as own,
            coalesce((select jsonb_agg(jsonb_build_object('subscriptionId', s.id, 'orderNumber', s.order_number::text,
                                 'displayName', coalesce(s.details->>'displayName', s.publication), 'publication', s.publication,
                                 'translations', s.details->'translations',
                                 'roles', (select jsonb_agg(r2.role order by array_position(array['AG', 'WE', 'RE', 'LV'], r2.role))
                                             from subscription_roles r2
                                            where r2.tenant_id = s.tenant_id and r2.subscription_id = s.id and r2.bp_number = bp.bp_number))
                                 order by s.cust_order_date desc nulls last, s.id)
                        from subscriptions s
                       where s.tenant_id = $1 and s.id in (select subscription_id from visible_subs)
                         and exists (select 1 from subscription_roles r3 where r3.tenant_id = $1 and r3.subscription_id = s.id
                                        and r3.bp_number = bp.bp_number)), '[]'::jsonb) as subscriptions
       from partners p
       join business_partners bp on bp.tenant_id = $1 and bp.bp_number = p.bp_number
      group by bp.tenant_id, bp.bp_number
      order by bool_or(p.own) desc, bp.bp_number`,
    [tenantId, userId],
  );
  return rows.map((row) => {
    const d = row.details as BusinessPartnerDetails;
    // The name and address fields of the details (business_partners.details): every party's, as
    // the subscription page shows them; the others (holiday address, communication, a licence
    // person's state) of the account's own partners only.
    return {
      ...(row.own && opts.allDetails
        ? d
        : detailsOf(d, row.own ? OWN_PARTNER_DETAILS : PARTNER_ADDRESS_DETAILS)),
      bpNumber: row.bp_number,
      salutation: d.salutation ?? null,
      salutationCode: row.salutation_code,
      firstName: row.first_name,
      lastName1: row.last_name1,
      company1: row.company1,
      department: d.department ?? null,
      street: row.street,
      streetNumber: row.street_number,
      addressLine1: d.addressLine1 ?? null,
      zipcode: row.zipcode,
      city: row.city,
      countryCode: row.country_code,
      // Contact details and birth date only of the account's own partners (§6): the other parties
      // of a subscription (goods or invoice recipient) show their address only.
      emailAddress: row.own ? row.email_address : null,
      phoneNumber: row.own ? row.phone_number : null,
      dateOfBirth: row.own ? row.date_of_birth : null,
      status: d.status,
      own: row.own,
      // Product names in the request's language, as GET /subscriptions gives them.
      subscriptions: row.subscriptions.map(({ translations, ...subscription }) => ({
        ...subscription,
        displayName: localizedDetails({ displayName: subscription.displayName, translations }, opts.locale)
          .displayName,
      })),
    };
  });
}
