/**
 * SQL of the multi-user licences (migration 010_licenses.sql; account-flows.md §3 licence, licence
 * object, licence manager). Every query is scoped by tenant and subscription; the service decides.
 */
import type { Queryable } from '../db/database';
import { lockUntilCommit } from './transactionLocks';

export interface LicensePartner {
  salutationCode?: string | null;
  titleAcademic?: string | null;
  firstName?: string | null;
  lastName1?: string | null;
  company1?: string | null;
  emailAddress: string;
  bpNumber?: string | null;
}

export interface LicenseRow {
  id: string;
  subscriptionId: string;
  orderNumber: string;
  isActive: boolean;
  isReactivatable: boolean;
  isConfirmed: boolean;
  role: string | null;
  academicYear: string | null;
  businessPartner: LicensePartner;
  email: string;
  bpNumber: string | null;
  inviteTokenHash: string | null;
  /** The invitation was sent within INVITATION_DAYS (a link from an old mailbox no longer works). */
  invitationLive: boolean;
  createdAt: string;
}

export interface LicenseObjectRow {
  subscriptionId: string;
  orderNumber: string;
  maxActiveLicenses: number;
  selfServiceEnabled: boolean;
}

/** How long an invitation link works; a resend makes a new one. */
export const INVITATION_DAYS = 14;

const LICENSE_COLUMNS = `id, subscription_id as "subscriptionId", order_number::text as "orderNumber", is_active as "isActive",
  is_reactivatable as "isReactivatable", is_confirmed as "isConfirmed", role, academic_year as "academicYear",
  business_partner as "businessPartner", email, bp_number::text as "bpNumber", invite_token_hash as "inviteTokenHash",
  (invited_at is not null and invited_at > now() - make_interval(days => ${INVITATION_DAYS})) as "invitationLive",
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"`;

const OBJECT_COLUMNS = `subscription_id as "subscriptionId", order_number::text as "orderNumber", max_active_licenses as "maxActiveLicenses", self_service_enabled as "selfServiceEnabled"`;

export async function licenseObjectsOf(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
): Promise<LicenseObjectRow[]> {
  return db.query<LicenseObjectRow>(
    `select ${OBJECT_COLUMNS} from license_objects where tenant_id = $1 and subscription_id = $2 order by order_number`,
    [tenantId, subscriptionId],
  );
}

/** One object, locked for the rest of the transaction so two adds cannot both take the last seat. */
export async function lockLicenseObject(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  orderNumber: string,
): Promise<LicenseObjectRow | null> {
  const rows = await db.query<LicenseObjectRow>(
    `select ${OBJECT_COLUMNS} from license_objects where tenant_id = $1 and subscription_id = $2 and order_number = $3 for update`,
    [tenantId, subscriptionId, orderNumber],
  );
  return rows[0] ?? null;
}

export async function licensesOf(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  orderNumber?: string,
): Promise<LicenseRow[]> {
  return db.query<LicenseRow>(
    `select ${LICENSE_COLUMNS} from licenses where tenant_id = $1 and subscription_id = $2 and ($3::text is null or order_number = $3)
      order by created_at, id`,
    [tenantId, subscriptionId, orderNumber ?? null],
  );
}

export async function findLicense(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  licenseId: string,
  forUpdate = false,
): Promise<LicenseRow | null> {
  const rows = await db.query<LicenseRow>(
    `select ${LICENSE_COLUMNS} from licenses where tenant_id = $1 and subscription_id = $2 and id = $3${forUpdate ? ' for update' : ''}`,
    [tenantId, subscriptionId, licenseId],
  );
  return rows[0] ?? null;
}

export async function insertLicense(
  db: Queryable,
  tenantId: string,
  row: {
    subscriptionId: string;
    orderNumber: string;
    isReactivatable: boolean;
    businessPartner: LicensePartner;
    email: string;
    inviteTokenHash: string | null;
  },
): Promise<LicenseRow | null> {
  const rows = await db.query<LicenseRow>(
    `insert into licenses (tenant_id, subscription_id, order_number, is_reactivatable, business_partner, email, invite_token_hash, invited_at)
     values ($1, $2, $3, $4, $5, $6, $7, case when $7::text is null then null else now() end)
     on conflict (tenant_id, subscription_id, order_number, email) do nothing
     returning ${LICENSE_COLUMNS}`,
    [
      tenantId,
      row.subscriptionId,
      row.orderNumber,
      row.isReactivatable,
      JSON.stringify(row.businessPartner),
      row.email,
      row.inviteTokenHash,
    ],
  );
  return rows[0] ?? null;
}

export async function setLicenseActive(
  db: Queryable,
  tenantId: string,
  licenseId: string,
  isActive: boolean,
): Promise<LicenseRow> {
  const rows = await db.query<LicenseRow>(
    `update licenses set is_active = $3 where tenant_id = $1 and id = $2 returning ${LICENSE_COLUMNS}`,
    [tenantId, licenseId, isActive],
  );
  return rows[0];
}

export async function setInviteToken(
  db: Queryable,
  tenantId: string,
  licenseId: string,
  tokenHash: string,
): Promise<void> {
  await db.query(
    `update licenses set invite_token_hash = $3, invited_at = now() where tenant_id = $1 and id = $2`,
    [tenantId, licenseId, tokenHash],
  );
}

export async function deleteLicense(db: Queryable, tenantId: string, licenseId: string): Promise<void> {
  await db.query(`delete from licenses where tenant_id = $1 and id = $2`, [tenantId, licenseId]);
}

/** Marks the licence accepted: person, role and year as given, its partner, confirmed; the token stays as "used". */
export async function confirmLicense(
  db: Queryable,
  tenantId: string,
  licenseId: string,
  row: {
    businessPartner: LicensePartner;
    bpNumber: string;
    role: string | null;
    academicYear: string | null;
    userId: string;
  },
): Promise<LicenseRow> {
  const rows = await db.query<LicenseRow>(
    `update licenses set business_partner = $3, bp_number = $4, role = $5, academic_year = $6, accepted_user_id = $7,
            is_confirmed = true, accepted_at = now()
      where tenant_id = $1 and id = $2 returning ${LICENSE_COLUMNS}`,
    [
      tenantId,
      licenseId,
      JSON.stringify(row.businessPartner),
      row.bpNumber,
      row.role,
      row.academicYear,
      row.userId,
    ],
  );
  return rows[0];
}

// --- business partners and roles of licence users and managers --------------------------------

/**
 * A new business partner for a licence user or manager. Numbers of partners made by the portal
 * start with 9 (the order system's range for self-service partners, so they sort after the
 * subscription's own parties); a clash with an existing number is retried.
 */
export async function createPartner(db: Queryable, tenantId: string, p: LicensePartner): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const rows = await db.query<{ bp: string }>(
      `insert into business_partners (tenant_id, bp_number, salutation_code, first_name, last_name1, company1, email_address, details)
       values ($1, '9' || lpad((floor(random() * 1000000000))::bigint::text, 9, '0'), $2, $3, $4, $5, $6, $7)
       on conflict (tenant_id, bp_number) do nothing
       returning bp_number::text as bp`,
      [
        tenantId,
        p.salutationCode ?? null,
        p.firstName ?? null,
        p.lastName1 ?? null,
        p.company1 ?? null,
        p.emailAddress,
        JSON.stringify(p.titleAcademic ? { titleAcademic: p.titleAcademic } : {}),
      ],
    );
    if (rows[0]) return rows[0].bp;
  }
  throw new Error('createPartner: no free business partner number');
}

/** `viaLicense`: the role comes from a licence (a licence user's WE), which reads but never changes the contract. */
export async function addRole(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  bpNumber: string,
  role: 'WE' | 'LV',
  viaLicense = false,
): Promise<void> {
  await db.query(
    `insert into subscription_roles (tenant_id, subscription_id, bp_number, role, via_license) values ($1, $2, $3, $4, $5) on conflict do nothing`,
    [tenantId, subscriptionId, bpNumber, role, viaLicense],
  );
}

export async function removeRole(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  bpNumber: string,
  role: 'WE' | 'LV',
): Promise<number> {
  const rows = await db.query(
    `delete from subscription_roles where tenant_id = $1 and subscription_id = $2 and bp_number = $3 and role = $4 returning 1`,
    [tenantId, subscriptionId, bpNumber, role],
  );
  return rows.length;
}

export interface ManagerRow {
  bpNumber: string;
  salutationCode: string | null;
  firstName: string | null;
  lastName1: string | null;
  email: string | null;
}

/** §3 "Licence manager: bpNumber, names, email": the LV partners of the subscription. */
export async function managersOf(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
): Promise<ManagerRow[]> {
  return db.query<ManagerRow>(
    `select bp.bp_number::text as "bpNumber", bp.salutation_code as "salutationCode", bp.first_name as "firstName",
            bp.last_name1 as "lastName1", contact_email(bp.email_address, bp.details) as email
       from subscription_roles sr
       join business_partners bp on bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number
      where sr.tenant_id = $1 and sr.subscription_id = $2 and sr.role = 'LV'
      order by bp.bp_number`,
    [tenantId, subscriptionId],
  );
}

// --- licence-manager appointments (migration 014) ----------------------------------------------

/** How long an appointment link works, like an invitation's (account-flows.md §2 "Licences"). */
export const APPOINTMENT_DAYS = INVITATION_DAYS;

export interface AppointmentRow {
  id: string;
  subscriptionId: string;
  salutationCode: string | null;
  firstName: string | null;
  lastName1: string | null;
  email: string;
  tokenHash: string;
  appointedByUserId: string;
  locale: string;
  sentAt: string;
  expiresAt: string;
  /** Sent within APPOINTMENT_DAYS. */
  live: boolean;
  confirmedAt: string | null;
}

const ISO = (expression: string) =>
  `to_char((${expression}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const APPOINTMENT_COLUMNS = `id, subscription_id as "subscriptionId", salutation_code as "salutationCode", first_name as "firstName",
  last_name1 as "lastName1", email, token_hash as "tokenHash", appointed_by_user_id as "appointedByUserId", locale,
  ${ISO('created_at')} as "sentAt", ${ISO(`created_at + make_interval(days => ${APPOINTMENT_DAYS})`)} as "expiresAt",
  (created_at > now() - make_interval(days => ${APPOINTMENT_DAYS})) as "live", ${ISO('confirmed_at')} as "confirmedAt"`;

/**
 * Stores a pending appointment in place of any pending one of the subscription (whose link then
 * stops working: its row is gone), and names those it replaced.
 */
export async function replacePendingAppointment(
  db: Queryable,
  tenantId: string,
  row: {
    subscriptionId: string;
    salutationCode: string | null;
    firstName: string | null;
    lastName1: string | null;
    email: string;
    tokenHash: string;
    appointedByUserId: string;
    locale: string;
  },
): Promise<{ appointment: AppointmentRow; replaced: string[] }> {
  // Two appointments of one subscription at once take turns: the second then sees the first's row,
  // deletes it and names it as replaced (its withdrawal is recorded), instead of overwriting it in
  // the insert's conflict, which would name nothing.
  await lockUntilCommit(db, `license-manager-appointment:${tenantId}:${row.subscriptionId}`);
  const replaced = await db.query<{ id: string }>(
    `delete from license_manager_appointments where tenant_id = $1 and subscription_id = $2 and confirmed_at is null
     returning id`,
    [tenantId, row.subscriptionId],
  );
  const rows = await db.query<AppointmentRow>(
    `insert into license_manager_appointments (tenant_id, subscription_id, salutation_code, first_name, last_name1, email, token_hash, appointed_by_user_id, locale)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     -- Unreachable under the lock above, kept as its safety net: the later appointment wins.
     on conflict (tenant_id, subscription_id) where confirmed_at is null do update
       set id = gen_random_uuid()::text, salutation_code = excluded.salutation_code, first_name = excluded.first_name, last_name1 = excluded.last_name1,
           email = excluded.email, token_hash = excluded.token_hash, appointed_by_user_id = excluded.appointed_by_user_id, locale = excluded.locale, created_at = now()
     returning ${APPOINTMENT_COLUMNS}`,
    [
      tenantId,
      row.subscriptionId,
      row.salutationCode,
      row.firstName,
      row.lastName1,
      row.email,
      row.tokenHash,
      row.appointedByUserId,
      row.locale,
    ],
  );
  return { appointment: rows[0], replaced: replaced.map((r) => r.id) };
}

/** The subscription's pending appointments whose link still works (at most one). */
export async function pendingAppointmentsOf(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
): Promise<AppointmentRow[]> {
  return db.query<AppointmentRow>(
    `select ${APPOINTMENT_COLUMNS} from license_manager_appointments
      where tenant_id = $1 and subscription_id = $2 and confirmed_at is null and created_at > now() - make_interval(days => ${APPOINTMENT_DAYS})
      order by created_at`,
    [tenantId, subscriptionId],
  );
}

export async function findAppointment(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  appointmentId: string,
  forUpdate = false,
): Promise<AppointmentRow | null> {
  const rows = await db.query<AppointmentRow>(
    `select ${APPOINTMENT_COLUMNS} from license_manager_appointments where tenant_id = $1 and subscription_id = $2 and id = $3${forUpdate ? ' for update' : ''}`,
    [tenantId, subscriptionId, appointmentId],
  );
  return rows[0] ?? null;
}

/** Marks the appointment confirmed (single use): the token stays as "used". */
export async function confirmAppointment(
  db: Queryable,
  tenantId: string,
  appointmentId: string,
  row: { userId: string; bpNumber: string },
): Promise<void> {
  await db.query(
    `update license_manager_appointments set confirmed_at = now(), confirmed_user_id = $3, bp_number = $4 where tenant_id = $1 and id = $2`,
    [tenantId, appointmentId, row.userId, row.bpNumber],
  );
}

/** A pending appointment withdrawn (by its subscription's ordering party or manager). */
export async function deletePendingAppointment(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
  appointmentId: string,
): Promise<number> {
  const rows = await db.query(
    `delete from license_manager_appointments where tenant_id = $1 and subscription_id = $2 and id = $3 and confirmed_at is null returning 1`,
    [tenantId, subscriptionId, appointmentId],
  );
  return rows.length;
}

/**
 * The licence users' goods-recipient roles (the portal's own rows, `via_license`) as the licences
 * of a subscription stand now: a WE for each accepted, active licence, none for any other. After
 * the order system rejected a licence change, its overlay put the licence back
 * (orderSystemOverlays.ts revertChangesOf); the access it gave or took follows it here
 * (account-flows.md §7: an accepted licence lets its user see the subscription while it is active).
 * Answers whether a role came or went.
 */
export async function followLicencesWithRoles(
  tx: Queryable,
  tenantId: string,
  subscriptionId: string | null,
): Promise<boolean> {
  if (!subscriptionId) return false;
  const held = `select 1 from licenses l
     where l.tenant_id = $1 and l.subscription_id = $2 and l.is_active and l.is_confirmed`;
  const removed = await tx.query(
    `delete from subscription_roles r
      where r.tenant_id = $1 and r.subscription_id = $2 and r.role = 'WE' and r.via_license
        and not exists (${held} and l.bp_number = r.bp_number)
      returning 1`,
    [tenantId, subscriptionId],
  );
  const added = await tx.query(
    `insert into subscription_roles (tenant_id, subscription_id, bp_number, role, via_license)
     select distinct l.tenant_id, l.subscription_id, l.bp_number, 'WE', true from licenses l
      where l.tenant_id = $1 and l.subscription_id = $2 and l.is_active and l.is_confirmed
        and l.bp_number is not null
     on conflict do nothing
     returning 1`,
    [tenantId, subscriptionId],
  );
  return removed.length + added.length > 0;
}

/**
 * SQL true for a staged subscription `s` ($1 the tenant, $2 the entity) whose roles differ from
 * its record by a replacement of licence managers that still stands on it: one the order system
 * has not answered, or one it confirmed after it wrote this record. The same record sent again
 * leaves such a row as it is, as it leaves a row with the portal's other changes on top
 * (orderSystemOverlays.ts HAS_CHANGES, RETIRES): a pending replacement stays until the order
 * system answers, a confirmed one until it sends a newer version.
 */
export const MANAGERS_REPLACED_ON_RECORD = `exists (select 1 from account_events e
  join order_system_versions v on v.tenant_id = e.tenant_id and v.entity = $2 and v.record_key = s.record_key
  left join change_acknowledgements a on a.tenant_id = e.tenant_id and a.event_id = e.id
  where e.tenant_id = $1 and e.type = 'license_manager.replaced' and e.subject_id = s.record_key
    and (a.event_id is null or (a.status = 'confirmed' and a.acknowledged_at > v.updated_at)))`;

/**
 * A replacement of licence managers (account-flows.md §6) is the portal's change of a subscription's
 * roles until the order system answers it (docs/going-live.md "Whose data is it"); the roles travel
 * inside the order system's subscription record, which replaces them when it is merged. After such a
 * merge (the staged records of order_system_staging) each replacement still pending goes back on
 * top, oldest first, as it was made: the managers it removed lose the role, the partner it
 * appointed holds it. A confirmed one is the order system's to carry from then on.
 */
export async function putBackPendingManagerReplacements(tx: Queryable, tenantId: string): Promise<void> {
  const pending = await tx.query<{ subscription_id: string; appointed: string | null; previous: string[] }>(
    `select e.subject_id as subscription_id, e.data ->> 'bpNumber' as appointed,
            array(select jsonb_array_elements_text(
                           case when jsonb_typeof(e.data -> 'previousBpNumbers') = 'array'
                                then e.data -> 'previousBpNumbers' else '[]' end)) as previous
       from account_events e
       join order_system_staging s on s.record_key = e.subject_id and s.outcome = 'apply'
      where e.tenant_id = $1 and e.type = 'license_manager.replaced'
        and not exists (select 1 from change_acknowledgements a where a.tenant_id = e.tenant_id and a.event_id = e.id)
      order by e.seq`,
    [tenantId],
  );
  for (const { subscription_id: subscriptionId, appointed, previous } of pending) {
    for (const bpNumber of previous)
      if (bpNumber !== appointed) await removeRole(tx, tenantId, subscriptionId, bpNumber, 'LV');
    // The appointed partner only while the order system keeps the partner.
    if (appointed)
      await tx.query(
        `insert into subscription_roles (tenant_id, subscription_id, bp_number, role)
         select $1, $2, p.bp_number, 'LV' from business_partners p where p.tenant_id = $1 and p.bp_number = $3
         on conflict do nothing`,
        [tenantId, subscriptionId, appointed],
      );
  }
}

/**
 * license_manager.replaced rejected: the managers before it (the event's `previousBpNumbers`) hold
 * the LV role again and the appointed partner does not, unless they were a manager before.
 * Answers whether a role came or went.
 */
export async function restoreLicenceManagers(
  tx: Queryable,
  tenantId: string,
  subscriptionId: string | null,
  appointed: string | null,
  previous: readonly string[],
): Promise<boolean> {
  if (!subscriptionId) return false;
  let changed = 0;
  if (appointed && !previous.includes(appointed))
    changed += await removeRole(tx, tenantId, subscriptionId, appointed, 'LV');
  const restored = await tx.query(
    `insert into subscription_roles (tenant_id, subscription_id, bp_number, role)
     select $1, $2, p.bp_number, 'LV' from business_partners p
      where p.tenant_id = $1 and p.bp_number = any($3::text[])
     on conflict do nothing
     returning 1`,
    [tenantId, subscriptionId, previous],
  );
  return changed + restored.length > 0;
}
