/**
 * SQL of the holiday service, complaint, address change and opt-in flows (migration 009).
 */
import type { Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { HolidayServiceType } from '../../engine/domain/holidayService';
import type { PostalAddress } from '../../schemas/generated/account-changes';
import type { Translations } from './localizedDetails';
import { claimingPaths } from './orderSystemOverlays';
import {
  DELIVERED_DATE_OF_FIRST_SALE,
  DELIVERED_DESCRIPTION,
  DELIVERED_ISSUE_NUMBER,
  DELIVERED_ISSUES_FROM,
  DELIVERED_TRANSLATIONS,
} from './deliveredIssues';

// --- holiday services ---------------------------------------------------------------------------

export interface HolidayServiceRow {
  id: string;
  subscriptionId: string;
  type: HolidayServiceType;
  dateFrom: string;
  dateTo: string;
  issueNumberFrom: string | null;
  issueNumberTo: string | null;
  firstShipping: string | null;
  address: PostalAddress | null;
}

const HOLIDAY_COLUMNS = `id, subscription_id as "subscriptionId", type, to_char(date_from, 'YYYY-MM-DD') as "dateFrom", to_char(date_to, 'YYYY-MM-DD') as "dateTo",
  issue_number_from as "issueNumberFrom", issue_number_to as "issueNumberTo", to_char(first_shipping, 'YYYY-MM-DD') as "firstShipping", address`;

/**
 * A planned service the subscription's record still names (`details.activeHolidayServiceType`,
 * which the service's change wrote): once the order system sends a newer record without it, the
 * order system has not planned it (docs/going-live.md "Whose data is it"), and neither has the portal.
 */
const ON_RECORD = `exists (select 1 from subscriptions s
   where s.tenant_id = h.tenant_id and s.id = h.subscription_id
     and s.details->>'activeHolidayServiceType' = h.type)`;

/**
 * The planned (not cancelled) services of a subscription that have not ended before `today`; with
 * `onRecord`, only those its record still names (what the screens show and the next service waits
 * for), else also one whose change has not written the record yet (the change itself).
 */
export async function plannedHolidayServices(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  today: string,
  { onRecord = true }: { onRecord?: boolean } = {},
): Promise<HolidayServiceRow[]> {
  return db.query<HolidayServiceRow>(
    `select ${HOLIDAY_COLUMNS} from holiday_services h
      where h.tenant_id = $1 and h.subscription_id = $2 and h.status = 'planned' and h.date_to >= $3::date
        ${onRecord ? `and ${ON_RECORD}` : ''}
      order by h.date_from`,
    [tenantId, subscriptionId, today],
  );
}

/**
 * Services no longer planned: those whose last day has passed, and those the subscription's record
 * no longer names (the order system's newer record went without them). A new one may be set up.
 */
export async function endPastHolidayServices(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  today: string,
): Promise<void> {
  await db.query(
    `update holiday_services h set status = 'ended'
      where h.tenant_id = $1 and h.subscription_id = $2 and h.status = 'planned'
        and (h.date_to < $3::date or not ${ON_RECORD})`,
    [tenantId, subscriptionId, today],
  );
}

/** Inserts a planned service; false when the subscription has one already (the unique index). */
export async function insertHolidayService(
  db: Queryable,
  tenantId: string,
  row: Omit<HolidayServiceRow, 'id'> & { userId: string | null },
): Promise<boolean> {
  const rows = await db.query(
    `insert into holiday_services (tenant_id, subscription_id, user_id, type, date_from, date_to, issue_number_from, issue_number_to, first_shipping, address)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (tenant_id, subscription_id) where status = 'planned' do nothing returning 1`,
    [
      tenantId,
      row.subscriptionId,
      row.userId,
      row.type,
      row.dateFrom,
      row.dateTo,
      row.issueNumberFrom,
      row.issueNumberTo,
      row.firstShipping,
      row.address ? JSON.stringify(row.address) : null,
    ],
  );
  return rows.length > 0;
}

export async function cancelHolidayServiceRow(db: Queryable, tenantId: string, id: string): Promise<void> {
  await db.query(
    `update holiday_services set status = 'cancelled', cancelled_at = now() where tenant_id = $1 and id = $2 and status = 'planned'`,
    [tenantId, id],
  );
}

// --- complaints ---------------------------------------------------------------------------------

export async function complainedIssues(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
): Promise<Set<string>> {
  const rows = await db.query<{ issue: string }>(
    `select issue from complaints where tenant_id = $1 and subscription_id = $2`,
    [tenantId, subscriptionId],
  );
  return new Set(rows.map((r) => r.issue));
}

export async function complaintsSince(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  since: Date,
): Promise<number> {
  const rows = await db.query<{ count: string }>(
    `select count(*)::text as count from complaints where tenant_id = $1 and subscription_id = $2 and created_at >= $3`,
    [tenantId, subscriptionId, since],
  );
  return Number(rows[0]?.count ?? 0);
}

export async function insertComplaint(
  db: Queryable,
  tenantId: string,
  row: {
    subscriptionId: string;
    userId: string;
    issue: string;
    reason: string;
    compensation: string;
    expectedBy: string | null;
    addressChanged: boolean;
  },
): Promise<boolean> {
  const rows = await db.query(
    `insert into complaints (tenant_id, subscription_id, user_id, issue, reason, compensation, expected_by, address_changed)
     values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (tenant_id, subscription_id, issue) do nothing returning 1`,
    [
      tenantId,
      row.subscriptionId,
      row.userId,
      row.issue,
      row.reason,
      row.compensation,
      row.expectedBy,
      row.addressChanged,
    ],
  );
  return rows.length > 0;
}

/** The fields of a postal address: a change of any of them moves where copies go (not a phone number). */
const POSTAL_KEYS = [
  'street',
  'streetNumber',
  'streetNumberSuffix',
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'zipcode',
  'city',
  'countryCode',
];

/**
 * Whether a goods recipient of the subscription had its postal address changed through the portal
 * with effect between `from` and `to` (ISO days): the day of an immediate change, the chosen day of
 * a dated one, whenever it was asked for. Read from the `address.changed` events, which name the
 * fields and the day (migration 033's index finds a partner's).
 */
export async function goodsRecipientAddressChanged(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  window: { from: string; to: string },
): Promise<boolean> {
  const [row] = await db.query<{ changed: boolean }>(
    `select exists (
       select 1 from subscription_roles r
         join account_events e
           on e.tenant_id = r.tenant_id and e.type = 'address.changed' and e.subject_id = r.bp_number::text
        where r.tenant_id = $1 and r.subscription_id = $2 and r.role = 'WE'
          and e.data->'fields' ?| $3::text[]
          and coalesce((e.data->>'validFrom')::date, (e.created_at at time zone 'UTC')::date) between $4::date and $5::date
     ) as changed`,
    [tenantId, subscriptionId, POSTAL_KEYS, window.from, window.to],
  );
  return row?.changed ?? false;
}

/**
 * A replacement or complimentary copy, listed with the delivered issues (the detail page shows it);
 * `translations` words its description in the tenant's other languages (server/store/localizedDetails.ts).
 */
export async function insertCompensationDelivery(
  db: Queryable,
  tenantId: string,
  row: {
    subscriptionId: string;
    issue: string;
    issueNumber: string | null;
    description: string;
    date: string;
    translations?: Translations<{ description: string }>;
  },
): Promise<void> {
  await db.query(
    `insert into delivered_issues (tenant_id, subscription_id, issue, issue_number, description, date_of_first_sale, download_status, translations)
     values ($1, $2, $3, $4, $5, $6, 'not_supported', $7) on conflict do nothing`,
    [
      tenantId,
      row.subscriptionId,
      row.issue,
      row.issueNumber,
      row.description,
      row.date,
      row.translations ? JSON.stringify(row.translations) : null,
    ],
  );
}

// --- business partners and future addresses ------------------------------------------------------

export interface PartnerRow {
  bpNumber: string;
  roles: string[];
  salutationCode: string | null;
  firstName: string | null;
  lastName1: string | null;
  company1: string | null;
  street: string | null;
  streetNumber: string | null;
  zipcode: string | null;
  city: string | null;
  countryCode: string | null;
  emailAddress: string | null;
  phoneNumber: string | null;
  dateOfBirth: string | null;
  details: Record<string, unknown>;
  /** The account speaks for this partner. */
  mine: boolean;
}

/**
 * The business partners of a subscription with their roles on it, and whether the user speaks for
 * each. `emailAddress` is the contact e-mail (portal-core.md §3: the explicit address, else the
 * default WW entry; migration 053), the one the sign-ins mail and the screens show.
 */
export async function partnersOfSubscription(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  userId: string,
): Promise<PartnerRow[]> {
  return db.query<PartnerRow>(
    `select bp.bp_number::text as "bpNumber", array_agg(sr.role order by array_position(array['AG','WE','RE','LV'], sr.role)) as roles,
            bp.salutation_code as "salutationCode", bp.first_name as "firstName", bp.last_name1 as "lastName1", bp.company1,
            bp.street, bp.street_number as "streetNumber", bp.zipcode, bp.city, bp.country_code as "countryCode",
            contact_email(bp.email_address, bp.details) as "emailAddress", bp.phone_number as "phoneNumber", to_char(bp.date_of_birth, 'YYYY-MM-DD') as "dateOfBirth",
            bp.details,
            exists (select 1 from user_business_partners ubp where ubp.tenant_id = bp.tenant_id and ubp.bp_number = bp.bp_number and ubp.user_id = $3) as mine
       from subscription_roles sr
       join business_partners bp on bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number
      where sr.tenant_id = $1 and sr.subscription_id = $2
      group by bp.tenant_id, bp.bp_number
      order by min(array_position(array['AG','WE','RE','LV'], sr.role)), bp.bp_number`,
    [tenantId, subscriptionId, userId],
  );
}

/**
 * Holds the partner's record to the end of the transaction: two address changes of one partner
 * (two windows, the order system's write) judge and write one after the other.
 */
export async function lockPartnerRecord(db: Queryable, tenantId: string, bpNumber: string): Promise<void> {
  await db.query(`select 1 from business_partners where tenant_id = $1 and bp_number = $2 for update`, [
    tenantId,
    bpNumber,
  ]);
}

export async function futureAddressesOf(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  today: string,
): Promise<Array<{ validFrom: string; address: Record<string, unknown> }>> {
  return db.query(
    `select to_char(valid_from, 'YYYY-MM-DD') as "validFrom", address from future_addresses
      where tenant_id = $1 and bp_number = $2 and applied_at is null and valid_from > $3::date order by valid_from`,
    [tenantId, bpNumber, today],
  );
}

export async function upsertFutureAddress(
  db: Queryable,
  tenantId: string,
  row: {
    bpNumber: string;
    validFrom: string;
    address: Record<string, unknown>;
    userId: string;
    eventId: string;
  },
): Promise<void> {
  await db.query(
    `insert into future_addresses (tenant_id, bp_number, valid_from, address, user_id, event_id) values ($1, $2, $3, $4, $5, $6)
     on conflict (tenant_id, bp_number, valid_from) do update
       set address = excluded.address, user_id = excluded.user_id, event_id = excluded.event_id, created_at = now(), applied_at = null`,
    [tenantId, row.bpNumber, row.validFrom, JSON.stringify(row.address), row.userId, row.eventId],
  );
}

/** The column fields of a business partner and the rest in `details`. */
export interface PartnerChange {
  salutationCode?: string | null;
  firstName?: string | null;
  lastName1?: string | null;
  company1?: string | null;
  street?: string | null;
  streetNumber?: string | null;
  zipcode?: string | null;
  city?: string | null;
  countryCode?: string | null;
  emailAddress?: string | null;
  phoneNumber?: string | null;
  dateOfBirth?: string | null;
  details?: Record<string, unknown>;
}

const PARTNER_COLUMNS: Array<[keyof PartnerChange, string]> = [
  ['salutationCode', 'salutation_code'],
  ['firstName', 'first_name'],
  ['lastName1', 'last_name1'],
  ['company1', 'company1'],
  ['street', 'street'],
  ['streetNumber', 'street_number'],
  ['zipcode', 'zipcode'],
  ['city', 'city'],
  ['countryCode', 'country_code'],
  ['emailAddress', 'email_address'],
  ['phoneNumber', 'phone_number'],
  ['dateOfBirth', 'date_of_birth'],
];

export async function updatePartner(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  change: PartnerChange,
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [tenantId, bpNumber];
  for (const [field, column] of PARTNER_COLUMNS) {
    if (change[field] === undefined) continue;
    params.push(change[field]);
    sets.push(`${column} = $${params.length}${column === 'date_of_birth' ? '::date' : ''}`);
  }
  if (change.details) {
    params.push(JSON.stringify(change.details));
    sets.push(`details = details || $${params.length}::jsonb`);
  }
  if (sets.length === 0) return;
  // Every field given is the change's, the ones that stay as they were too (claimingPaths).
  const paths = [
    ...PARTNER_COLUMNS.filter(([field]) => change[field] !== undefined).map(([, column]) => column),
    ...Object.keys(change.details ?? {}).map((key) => `details.${key}`),
  ];
  await claimingPaths(db, 'business-partners', paths, () =>
    db.query(
      `update business_partners set ${sets.join(', ')} where tenant_id = $1 and bp_number = $2`,
      params,
    ),
  );
}

/** Future addresses due on `today`, oldest first, locked for the applying transaction. */
export async function claimDueFutureAddresses(
  db: Queryable,
  today: string,
): Promise<
  Array<{
    tenantId: string;
    bpNumber: string;
    validFrom: string;
    address: PartnerChange;
    eventId: string | null;
  }>
> {
  return db.query(
    `select tenant_id as "tenantId", bp_number::text as "bpNumber", to_char(valid_from, 'YYYY-MM-DD') as "validFrom", address,
            event_id::text as "eventId"
       from future_addresses where applied_at is null and last_error is null and valid_from <= $1::date
      order by valid_from limit 100 for update skip locked`,
    [today],
  );
}

export async function markFutureAddressFailed(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  validFrom: string,
  error: string,
): Promise<void> {
  await db.query(
    `update future_addresses set last_error = $4 where tenant_id = $1 and bp_number = $2 and valid_from = $3`,
    [tenantId, bpNumber, validFrom, error.slice(0, 500)],
  );
}

export async function markFutureAddressApplied(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  validFrom: string,
): Promise<void> {
  await db.query(
    `update future_addresses set applied_at = now() where tenant_id = $1 and bp_number = $2 and valid_from = $3`,
    [tenantId, bpNumber, validFrom],
  );
}

// --- opt-ins ------------------------------------------------------------------------------------

export interface OptInRow {
  type: string;
  description: Partial<Record<Locale, string>>;
  value: boolean;
  pending: boolean;
}

/**
 * The partner's opt-ins: its recorded ones and, off, each of the tenant's `types` it has none of
 * yet (a publisher's subscribers start with none recorded; the first switch records it,
 * recordOptInTypes). By type.
 */
export async function optInsOf(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  types: ReadonlyArray<{ type: string; description: Partial<Record<Locale, string>> }> = [],
): Promise<OptInRow[]> {
  const rows = await db.query<OptInRow>(
    `select type, description, value, pending from opt_ins where tenant_id = $1 and bp_number = $2 order by type`,
    [tenantId, bpNumber],
  );
  const unrecorded = types
    .filter((t) => !rows.some((r) => r.type === t.type))
    .map((t) => ({ type: t.type, description: t.description, value: false, pending: false }));
  return [...rows, ...unrecorded].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/** Records the tenant's opt-in types the partner has no row of yet, off, before a switch writes one. */
export async function recordOptInTypes(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  types: ReadonlyArray<{ type: string; description: Partial<Record<Locale, string>> }>,
): Promise<void> {
  if (types.length === 0) return;
  await db.query(
    `insert into opt_ins (tenant_id, bp_number, type, description)
     select $1, $2, t.type, t.description from jsonb_to_recordset($3::jsonb) as t(type text, description jsonb)
     on conflict do nothing`,
    [tenantId, bpNumber, JSON.stringify(types)],
  );
}

export async function switchOptInOff(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  type: string,
): Promise<void> {
  await db.query(
    `update opt_ins set value = false, pending = false, confirm_token_hash = null, confirm_expires_at = null, updated_at = now()
      where tenant_id = $1 and bp_number = $2 and type = $3`,
    [tenantId, bpNumber, type],
  );
}

export async function markOptInPending(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  type: string,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db.query(
    `update opt_ins set pending = true, confirm_token_hash = $4, confirm_expires_at = $5, updated_at = now()
      where tenant_id = $1 and bp_number = $2 and type = $3`,
    [tenantId, bpNumber, type, tokenHash, expiresAt],
  );
}

/**
 * The partner's opt-in types waiting for a double opt-in link that expires after `expiresAfter`:
 * with the link's lifetime added to a moment, those whose link was sent after it.
 */
export async function optInsAskedSince(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
  expiresAfter: Date,
): Promise<string[]> {
  const rows = await db.query<{ type: string }>(
    `select type from opt_ins
      where tenant_id = $1 and bp_number = $2 and pending and confirm_expires_at > $3`,
    [tenantId, bpNumber, expiresAfter],
  );
  return rows.map((row) => row.type);
}

/** The opt-ins a double opt-in link still confirms (none: spent, expired or made up). */
export async function optInsOfOpenLink(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
  now: Date,
): Promise<Array<Pick<OptInRow, 'type' | 'description'>>> {
  return db.query<Pick<OptInRow, 'type' | 'description'>>(
    `select type, description from opt_ins
      where tenant_id = $1 and confirm_token_hash = $2 and pending and confirm_expires_at > $3
      order by type`,
    [tenantId, tokenHash, now],
  );
}

/**
 * The account that last asked for a partner's opt-ins (its `opt_ins.changed`): the link's
 * confirmation is that subscriber's, whose orders page and mailbox hear of its rejection.
 */
export async function accountThatAskedForOptIns(
  db: Queryable,
  tenantId: string,
  bpNumber: string,
): Promise<string | null> {
  const [row] = await db.query<{ user_id: string }>(
    `select user_id from account_events
      where tenant_id = $1 and type = 'opt_ins.changed' and subject_id = $2 and user_id is not null
      order by created_at desc, seq desc limit 1`,
    [tenantId, bpNumber],
  );
  return row?.user_id ?? null;
}

/** Confirms the pending opt-ins of a link (once, before it expires); answers the partner and types. */
export async function confirmOptIns(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
  now: Date,
): Promise<{ bpNumber: string; types: string[] } | null> {
  const rows = await db.query<{ bpNumber: string; type: string }>(
    `update opt_ins set value = true, pending = false, confirm_token_hash = null, confirm_expires_at = null, updated_at = now()
      where tenant_id = $1 and confirm_token_hash = $2 and pending and confirm_expires_at > $3
      returning bp_number::text as "bpNumber", type`,
    [tenantId, tokenHash, now],
  );
  if (rows.length === 0) return null;
  return { bpNumber: rows[0].bpNumber, types: rows.map((r) => r.type).sort() };
}

/**
 * The latest delivered issues of a subscription (newest first), without compensation copies; with the
 * `translations` of their descriptions (localizedDetails gives them in a language).
 */
export async function latestDeliveredIssues(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  limit: number,
): Promise<
  Array<{
    issue: string;
    issueNumber: string | null;
    description: string | null;
    dateOfFirstSale: string | null;
    translations: Translations<{ description: string | null }> | null;
  }>
> {
  return db.query(
    `select d.issue, ${DELIVERED_ISSUE_NUMBER} as "issueNumber", ${DELIVERED_DESCRIPTION} as description,
            to_char(${DELIVERED_DATE_OF_FIRST_SALE}, 'YYYY-MM-DD') as "dateOfFirstSale", ${DELIVERED_TRANSLATIONS} as translations
       from ${DELIVERED_ISSUES_FROM}
      where d.tenant_id = $1 and d.subscription_id = $2 and d.issue not like 'C-%'
      order by ${DELIVERED_DATE_OF_FIRST_SALE} desc nulls last, d.issue desc limit $3`,
    [tenantId, subscriptionId, limit],
  );
}

/** Subscriptions whose pending payment method change is due on `today`, locked for the applying transaction. */
export async function claimDuePaymentMethodChanges(
  db: Queryable,
  today: string,
): Promise<
  Array<{
    tenantId: string;
    id: string;
    pending: { paymentMethod: string; effectiveFrom: string; account: Record<string, unknown> | null };
  }>
> {
  return db.query(
    `select tenant_id as "tenantId", id, details->'pendingPaymentMethod' as pending from subscriptions
      where details->'pendingPaymentMethod'->>'effectiveFrom' <= $1
      order by tenant_id, id limit 100 for update skip locked`,
    [today],
  );
}
