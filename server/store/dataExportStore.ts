/**
 * SQL of "Download my data" (migration 020): the export requests (the mailed link's
 * hashed token, the rate limit's record) and the reads that fill the ZIP.
 *
 * Every read is scoped twice: by tenant_id, and by the account — its own user_id, or the business
 * partners it speaks for (user_business_partners). No read goes through a subscription or a partner
 * the caller names: what ends up in an export is decided here, from the account alone, so no
 * request can widen it to another person's rows.
 */
import type { OrderSystemPayment } from '../../schemas/generated/order-system-payment';
import type { Queryable } from '../db/database';

const ISO = (expression: string) =>
  `to_char((${expression}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// --- the requests ------------------------------------------------------------------------------

export interface DataExportRow {
  id: string;
  userId: string;
  locale: string;
  createdAt: string;
  expiresAt: string;
}

export async function insertDataExport(
  db: Queryable,
  tenantId: string,
  row: { userId: string; tokenHash: string; locale: string; createdAt: Date; expiresAt: Date },
): Promise<string> {
  const [inserted] = await db.query<{ id: string }>(
    `insert into data_exports (tenant_id, user_id, token_hash, locale, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [
      tenantId,
      row.userId,
      row.tokenHash,
      row.locale,
      row.createdAt.toISOString(),
      row.expiresAt.toISOString(),
    ],
  );
  return inserted.id;
}

/** The account's requests since `since`, and when the oldest of them was (for "try again in …"). */
export async function exportRequestsSince(
  db: Queryable,
  tenantId: string,
  userId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db.query<{ count: string; oldest: Date | null }>(
    `select count(*) as count, min(created_at) as oldest from data_exports
      where tenant_id = $1 and user_id = $2 and created_at > $3`,
    [tenantId, userId, since.toISOString()],
  );
  return { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest) : null };
}

/**
 * The export a link's token opens: of this tenant, of this account, not expired. Anything else —
 * another tenant's token, another account's, an expired or unknown one — is the same "nothing".
 */
export async function findLiveExport(
  db: Queryable,
  tenantId: string,
  userId: string,
  tokenHash: string,
  now: Date,
): Promise<DataExportRow | null> {
  const rows = await db.query<DataExportRow>(
    `select id, user_id as "userId", locale, ${ISO('created_at')} as "createdAt", ${ISO('expires_at')} as "expiresAt"
       from data_exports
      where tenant_id = $1 and user_id = $2 and token_hash = $3 and expires_at > $4`,
    [tenantId, userId, tokenHash, now.toISOString()],
  );
  return rows[0] ?? null;
}

export async function markExportDownloaded(
  db: Queryable,
  tenantId: string,
  id: string,
  at: Date,
): Promise<void> {
  await db.query(
    `update data_exports set downloaded_at = coalesce(downloaded_at, $3), download_count = download_count + 1
      where tenant_id = $1 and id = $2`,
    [tenantId, id, at.toISOString()],
  );
}

// --- what the ZIP holds ------------------------------------------------------------------------

/** The account itself (users row), without its password hash or SSO id (credentials, not data about a person). */
export async function exportAccount(db: Queryable, tenantId: string, userId: string) {
  const rows = await db.query<Record<string, unknown>>(
    `select id, email, display_name as "displayName", first_name as "firstName", last_name as "lastName",
            (password_hash is not null) as "hasPassword", (sso_id is not null) as "hasSingleSignOn",
            ${ISO('created_at')} as "createdAt",
            coalesce((select jsonb_agg(jsonb_build_object('email', r.email, 'retiredAt', ${ISO('r.retired_at')})
                                       order by r.retired_at)
                        from retired_addresses r where r.tenant_id = users.tenant_id and r.user_id = users.id),
                     '[]'::jsonb) as "previousAddresses"
       from users where tenant_id = $1 and id = $2`,
    [tenantId, userId],
  );
  return rows[0] ?? null;
}

/** The business partners the account speaks for (its own, not the other parties of its orders). */
export async function ownPartnerNumbers(db: Queryable, tenantId: string, userId: string): Promise<string[]> {
  const rows = await db.query<{ bp: string }>(
    `select bp_number::text as bp from user_business_partners where tenant_id = $1 and user_id = $2 order by bp_number`,
    [tenantId, userId],
  );
  return rows.map((row) => row.bp);
}

/** Addresses of the own partners waiting for their day (future_addresses). */
export async function exportFutureAddresses(db: Queryable, tenantId: string, userId: string) {
  return db.query<Record<string, unknown>>(
    `select fa.bp_number::text as "bpNumber", to_char(fa.valid_from, 'YYYY-MM-DD') as "validFrom", fa.address,
            ${ISO('fa.created_at')} as "createdAt", ${ISO('fa.applied_at')} as "appliedAt"
       from future_addresses fa
       join user_business_partners ubp on ubp.tenant_id = fa.tenant_id and ubp.bp_number = fa.bp_number
      where fa.tenant_id = $1 and ubp.user_id = $2
      order by fa.bp_number, fa.valid_from`,
    [tenantId, userId],
  );
}

export interface ExportPaymentRow {
  subscriptionId: string;
  id: string;
  date: string;
  amount: string;
  currency: string;
  invoiceStatusCode: 'U' | 'A' | 'T' | 'O';
  invoiceNumber: string | null;
  externalDocumentNumber: string | null;
  documentId: string | null;
  /** What was paid of the invoice and its lines, as the order system booked them (its PDF states both). */
  paidAmount: string | null;
  lines: NonNullable<OrderSystemPayment['lines']> | null;
}

/**
 * The payment history of subscriptions one of the account's own partners pays for: ordering party
 * (AG) or invoice recipient (RE). A goods recipient or licence manager sees a subscription someone
 * else pays for (a gift, a company licence); those payments are the payer's data, not theirs.
 */
export async function exportPaymentHistory(
  db: Queryable,
  tenantId: string,
  userId: string,
): Promise<ExportPaymentRow[]> {
  return db.query<ExportPaymentRow>(
    `select ph.subscription_id as "subscriptionId", ph.id, to_char(ph.date, 'YYYY-MM-DD') as date,
            ph.amount::text as amount, ph.currency, ph.invoice_status_code as "invoiceStatusCode",
            ph.invoice_number as "invoiceNumber", ph.external_document_number as "externalDocumentNumber",
            ph.document_id as "documentId", ph.paid_amount::text as "paidAmount", ph.lines
       from payment_history ph
      where ph.tenant_id = $1
        and exists (select 1 from subscription_roles r
                      join user_business_partners ubp on ubp.tenant_id = r.tenant_id and ubp.bp_number = r.bp_number
                     where r.tenant_id = ph.tenant_id and r.subscription_id = ph.subscription_id
                       and r.role in ('AG', 'RE') and ubp.user_id = $2)
      order by ph.subscription_id, ph.date desc, ph.id desc`,
    [tenantId, userId],
  );
}

/**
 * Online payments the account made (card, PayPal), without the payment page's secret, each with
 * the refunds of it (migration 042).
 */
export async function exportOnlinePayments(db: Queryable, tenantId: string, userId: string) {
  return db.query<Record<string, unknown>>(
    `select p.id, p.provider, p.method, p.amount::text as amount, p.currency, p.status, p.purpose, p.description,
            ${ISO('p.created_at')} as "createdAt", ${ISO('p.settled_at')} as "settledAt",
            coalesce((select jsonb_agg(jsonb_build_object(
                        'amount', r.amount::text, 'currency', r.currency, 'reason', r.reason,
                        'status', r.status, 'createdAt', ${ISO('r.created_at')},
                        'issuedAt', ${ISO('r.issued_at')}) order by r.created_at, r.id)
                        from payment_refunds r where r.tenant_id = p.tenant_id and r.payment_id = p.id),
                     '[]'::jsonb) as refunds
       from payments p where p.tenant_id = $1 and p.user_id = $2 order by p.created_at`,
    [tenantId, userId],
  );
}

export async function exportInvoiceRequests(db: Queryable, tenantId: string, userId: string) {
  return db.query<Record<string, unknown>>(
    `select subject_kind as "subjectKind", subject_id as "subjectId", invoice_number as "invoiceNumber",
            to_char(requested_on, 'YYYY-MM-DD') as "requestedOn", status
       from invoice_requests where tenant_id = $1 and user_id = $2 order by created_at`,
    [tenantId, userId],
  );
}

/** What the account did on its subscriptions: cancellations, accepted offers, holiday services, complaints. */
export async function exportSubscriptionChanges(db: Queryable, tenantId: string, userId: string) {
  const args = [tenantId, userId];
  const [cancellations, offers, holidayServices, complaints] = await Promise.all([
    db.query<Record<string, unknown>>(
      `select subscription_id as "subscriptionId", reason, reason_text as "reasonText", feedback, type,
              issue_number as "issueNumber", to_char(effective_date, 'YYYY-MM-DD') as "effectiveDate",
              ${ISO('created_at')} as "createdAt"
         from cancellations where tenant_id = $1 and user_id = $2 order by created_at`,
      args,
    ),
    db.query<Record<string, unknown>>(
      `select subscription_id as "subscriptionId", offer_id as "offerId", source, upgrade_time as "upgradeTime",
              cancel_reason as "cancelReason", status, ${ISO('created_at')} as "createdAt", ${ISO('applied_at')} as "appliedAt"
         from offer_acceptances where tenant_id = $1 and user_id = $2 order by created_at`,
      args,
    ),
    db.query<Record<string, unknown>>(
      `select subscription_id as "subscriptionId", type, to_char(date_from, 'YYYY-MM-DD') as "dateFrom",
              to_char(date_to, 'YYYY-MM-DD') as "dateTo", address, status, ${ISO('created_at')} as "createdAt",
              ${ISO('cancelled_at')} as "cancelledAt"
         from holiday_services where tenant_id = $1 and user_id = $2 order by created_at`,
      args,
    ),
    db.query<Record<string, unknown>>(
      `select subscription_id as "subscriptionId", issue, reason, compensation, to_char(expected_by, 'YYYY-MM-DD') as "expectedBy",
              ${ISO('created_at')} as "createdAt"
         from complaints where tenant_id = $1 and user_id = $2 order by created_at`,
      args,
    ),
  ]);
  return { cancellations, offers, holidayServices, complaints };
}

/** The opt-ins of the own partners, with the order system's descriptions as stored (the service names them for the export's language). */
export async function exportOptIns(db: Queryable, tenantId: string, userId: string) {
  return db.query<{
    bpNumber: string;
    type: string;
    description: Record<string, string> | null;
    value: boolean;
    pending: boolean;
    updatedAt: string;
  }>(
    `select o.bp_number::text as "bpNumber", o.type, o.description,
            o.value, o.pending, ${ISO('o.updated_at')} as "updatedAt"
       from opt_ins o
       join user_business_partners ubp on ubp.tenant_id = o.tenant_id and ubp.bp_number = o.bp_number
      where o.tenant_id = $1 and ubp.user_id = $2
      order by o.bp_number, o.type`,
    [tenantId, userId],
  );
}

/**
 * Licences, two kinds:
 * - `own`: licences that are the account's (it accepted them, or one of its partners holds them):
 *   everything the row says about the account.
 * - `managed`: the licences of subscriptions the account manages (licence manager LV, or ordering
 *   party) as the manager sees them on screen — the licensed person's salutation and names, the
 *   state, role and academic year — never their e-mail address or partner number: a licence
 *   manager gets the licences' names only.
 */
export async function exportLicenses(db: Queryable, tenantId: string, userId: string) {
  const args = [tenantId, userId];
  const [own, managed, appointments] = await Promise.all([
    db.query<Record<string, unknown>>(
      `select l.subscription_id as "subscriptionId", l.order_number::text as "orderNumber", l.is_active as "isActive",
              l.is_confirmed as "isConfirmed", l.role, l.academic_year as "academicYear", l.email,
              l.bp_number::text as "bpNumber", l.business_partner as "businessPartner",
              ${ISO('l.invited_at')} as "invitedAt", ${ISO('l.accepted_at')} as "acceptedAt"
         from licenses l
        where l.tenant_id = $1
          and (l.accepted_user_id = $2
               or l.bp_number in (select bp_number from user_business_partners where tenant_id = $1 and user_id = $2))
        order by l.created_at, l.id`,
      args,
    ),
    db.query<Record<string, unknown>>(
      `select l.subscription_id as "subscriptionId", l.order_number::text as "orderNumber",
              l.business_partner->>'salutationCode' as "salutationCode", l.business_partner->>'firstName' as "firstName",
              l.business_partner->>'lastName1' as "lastName1", l.is_active as "isActive", l.is_confirmed as "isConfirmed",
              l.role, l.academic_year as "academicYear"
         from licenses l
        where l.tenant_id = $1
          and exists (select 1 from subscription_roles r
                        join user_business_partners ubp on ubp.tenant_id = r.tenant_id and ubp.bp_number = r.bp_number
                       where r.tenant_id = l.tenant_id and r.subscription_id = l.subscription_id
                         and r.role in ('LV', 'AG') and ubp.user_id = $2)
        order by l.subscription_id, l.order_number, l.created_at, l.id`,
      args,
    ),
    // Licence-manager appointments the account made or confirmed (migration 014): the appointee as
    // the licence screen names them, never their address (another person's, like `managed`).
    db.query<Record<string, unknown>>(
      `select subscription_id as "subscriptionId", salutation_code as "salutationCode", first_name as "firstName",
              last_name1 as "lastName1", (appointed_by_user_id = $2) as "appointedByYou",
              (confirmed_user_id = $2) as "confirmedByYou", ${ISO('created_at')} as "createdAt",
              ${ISO('confirmed_at')} as "confirmedAt"
         from license_manager_appointments
        where tenant_id = $1 and (appointed_by_user_id = $2 or confirmed_user_id = $2)
        order by created_at, id`,
      args,
    ),
  ]);
  return { own, managed, appointments };
}

/**
 * E-cards the account sent or scheduled. The recipient's name and address are someone else's: the
 * export names the recipient as the sender typed it and masks the address (server side, in the
 * service), the way a screen would list a sent card.
 */
export async function exportECards(db: Queryable, tenantId: string, userId: string) {
  return db.query<{
    id: string;
    templateName: string;
    fromName: string;
    toName: string;
    toEmail: string;
    message: string;
    sendAt: string;
    status: string;
    sentAt: string | null;
    createdAt: string;
  }>(
    `select id, template_name as "templateName", from_name as "fromName", to_name as "toName", to_email as "toEmail",
            message, ${ISO('send_at')} as "sendAt", status, ${ISO('sent_at')} as "sentAt", ${ISO('created_at')} as "createdAt"
       from e_cards where tenant_id = $1 and user_id = $2 order by created_at`,
    [tenantId, userId],
  );
}

/** The customer club: membership, favourites and claimed rewards (with the codes handed out to the account). */
export async function exportLoyalty(db: Queryable, tenantId: string, userId: string, locale: string) {
  const args = [tenantId, userId, locale];
  const [members, favorites, claims] = await Promise.all([
    db.query<Record<string, unknown>>(
      `select opted_in as "optedIn", ${ISO('changed_at')} as "changedAt" from loyalty_members where tenant_id = $1 and user_id = $2`,
      [tenantId, userId],
    ),
    db.query<Record<string, unknown>>(
      `select f.reward_id as "rewardId", coalesce(r.name->>$3, r.name->>'en-GB') as "rewardName", ${ISO('f.created_at')} as "createdAt"
         from loyalty_favorites f join loyalty_rewards r on r.tenant_id = f.tenant_id and r.id = f.reward_id
        where f.tenant_id = $1 and f.user_id = $2 order by f.created_at`,
      args,
    ),
    db.query<Record<string, unknown>>(
      `select c.reward_id as "rewardId", coalesce(r.name->>$3, r.name->>'en-GB') as "rewardName", r.tier_code as "tierCode",
              c.code, ${ISO('c.claimed_at')} as "claimedAt"
         from loyalty_claims c join loyalty_rewards r on r.tenant_id = c.tenant_id and r.id = c.reward_id
        where c.tenant_id = $1 and c.user_id = $2 order by c.claimed_at`,
      args,
    ),
  ]);
  return { membership: members[0] ?? null, favorites, claims };
}

export interface ExportContactMessage {
  id: string;
  activity: string;
  subscriptionId: string | null;
  publication: string | null;
  orderNumber: string | null;
  contactDetails: Record<string, unknown>;
  message: string | null;
  optIn: boolean;
  imageFilename: string | null;
  imageMimeType: string | null;
  imageData: Buffer | null;
  createdAt: string;
}

/** Contact messages the account sent signed in (an anonymous message carries no account to find it by). */
export async function exportContactMessages(
  db: Queryable,
  tenantId: string,
  userId: string,
): Promise<ExportContactMessage[]> {
  return db.query<ExportContactMessage>(
    `select id, activity, subscription_id as "subscriptionId", publication, order_number as "orderNumber",
            contact_details as "contactDetails", message, opt_in as "optIn", image_filename as "imageFilename",
            image_mime_type as "imageMimeType", image_data as "imageData", ${ISO('created_at')} as "createdAt"
       from contact_messages where tenant_id = $1 and user_id = $2 order by created_at`,
    [tenantId, userId],
  );
}

/** The account events the account caused (what was recorded and sent to the publisher's systems). */
export async function exportAccountEvents(db: Queryable, tenantId: string, userId: string) {
  return db.query<Record<string, unknown>>(
    `select id::text as id, type, subject_type as "subjectType", subject_id as "subjectId", data,
            ${ISO('created_at')} as "createdAt"
       from account_events where tenant_id = $1 and user_id = $2 order by seq`,
    [tenantId, userId],
  );
}

/** What the account did that the activity record keeps (order attributes set, invoices asked for). */
export async function exportAccountActivity(db: Queryable, tenantId: string, userId: string) {
  return db.query<Record<string, unknown>>(
    `select action, subject_id as "subjectId", details, ${ISO('created_at')} as "createdAt"
       from account_activity where tenant_id = $1 and user_id = $2 order by created_at, id`,
    [tenantId, userId],
  );
}

/**
 * The account's changes still pending at the order system, or confirmed and not yet in its next
 * record (migration 023, docs/going-live.md "Whose data is it"): what the subscriber wrote and
 * the order system's values it replaced. Only on the records that are the account's own — its
 * partners, and subscriptions one of them has a role in; on another record (a licence the account
 * manages) the export says which fields the change wrote, not the values, since the record key and
 * the values are another person's (dataExport.ts "Never another person's data"). A removed row's
 * base (the whole row) is never included.
 */
export async function exportPendingChanges(db: Queryable, tenantId: string, userId: string) {
  return db.query<Record<string, unknown>>(
    `with changes as (
       select (o.entity = 'business-partners' and o.record_key in (
                 select ubp.bp_number::text from user_business_partners ubp where ubp.tenant_id = o.tenant_id and ubp.user_id = $2))
           or (o.entity = 'subscriptions' and o.record_key in (
                 select r.subscription_id from subscription_roles r
                   join user_business_partners ubp on ubp.tenant_id = r.tenant_id and ubp.bp_number = r.bp_number
                  where r.tenant_id = o.tenant_id and ubp.user_id = $2)) as own,
              o.*
         from order_system_overlays o
         join account_events e on e.tenant_id = o.tenant_id and e.id = o.event_id
        where o.tenant_id = $1 and e.user_id = $2)
     select entity, case when own then record_key end as "recordKey", kind, status,
            event_id::text as "eventId",
            case when own then fields else to_jsonb(array(select jsonb_object_keys(fields))) end as fields,
            case when own and kind = 'update' then base end as "previousValues",
            ${ISO('created_at')} as "createdAt"
       from changes order by created_at, id`,
    [tenantId, userId],
  );
}
