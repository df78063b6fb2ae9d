/**
 * SQL of the hourly clean-up (server/db/housekeeping.ts): what nothing reads any more, and personal
 * data past its use. Every statement is idempotent, so several instances running it at once is
 * harmless.
 */
import type { Queryable } from '../db/database';
import { maskEventAccounts, UNANSWERED_ACCOUNT_DAYS } from './accountEventStore';

/** How long account events and their deliveries are kept once every delivery has ended. */
export const EVENT_RETENTION_DAYS = 90;
/**
 * How long a change waits in the feed for its acknowledgement while an order system reads it:
 * an order system that was down for a while still gets every change, one that never
 * acknowledges does not keep personal data here for ever.
 */
export const UNACKNOWLEDGED_CHANGE_RETENTION_DAYS = 365;
/**
 * How long an e-card that went out (or finally failed) is kept: its message and both names and the
 * recipient's address are personal data, and nothing shows sent cards again. A month answers a
 * subscriber's "did my card go out?" and the daily cap (server/e-card/) needs a day.
 */
export const E_CARD_RETENTION_DAYS = 30;
/**
 * How long the events the retention insights count are kept: a year to compare with the
 * year before, and a month to spare. They carry ids, reason codes and prices, no address or
 * message: the events with contact data still go after EVENT_RETENTION_DAYS.
 */
export const INSIGHT_EVENT_RETENTION_DAYS = 400;
/**
 * How long a kept invoice document (migration 031) stays once a newer one of the same invoice,
 * form and language was made (the order system corrected the record, the address changed) and it
 * has not been served since: a request that read the old inputs a moment before the change still
 * finds its bytes, and nothing keeps an old address for longer.
 */
export const SUPERSEDED_DOCUMENT_DAYS = 30;
export const INSIGHT_EVENT_TYPES: readonly string[] = [
  'offer_flow.started',
  'subscription.cancelled',
  'offer.accepted',
];

export async function deleteExpiredRows(db: Queryable, now: Date): Promise<void> {
  const day = new Date(now.getTime() - 86_400_000).toISOString();
  const week = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const eCardsBefore = new Date(now.getTime() - E_CARD_RETENTION_DAYS * 86_400_000).toISOString();
  const eventsBefore = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  const at = now.toISOString();
  await db.query(`delete from rate_limits where window_start < $1`, [day]);
  // Idempotency keys of the operator API are kept a day (server/operator/idempotency.ts).
  await db.query(`delete from operator_idempotency_keys where created_at < $1`, [day]);
  await db.query(`delete from login_tokens where expires_at < $1`, [day]);
  await db.query(`delete from oauth_requests where expires_at < $1`, [at]);
  await db.query(`delete from download_keys where expires_at < $1`, [at]);
  // A data export's row is its link and its rate limit: both are over a day after it
  // expired (the limit counts the last 24 hours).
  await db.query(`delete from data_exports where expires_at < $1`, [day]);
  // A widget's sign-up or link never confirmed is no consent and no proof (docs/subscribers.md "E-cards and
  // the widgets"): the typed name and address go a day after the link expired. A confirmed one stays,
  // the proof of the consent it recorded (GDPR Art. 7(1)).
  await db.query(`delete from opt_in_widget_signups where confirmed_at is null and expires_at < $1`, [day]);
  await db.query(`delete from email_widget_links where confirmed_at is null and expires_at < $1`, [day]);
  await db.query(`delete from sso_sessions where expires_at < $1 or revoked_at < $2`, [at, week]);
  await db.query(`delete from sessions where coalesce(revoked_at, expires_at) < $1`, [week]);
  // Finished imports are kept for the metrics (migration 034): the newest of each tenant and
  // result always, which PortalImportFailed compares; the rest for EVENT_RETENTION_DAYS.
  await db.query(
    `delete from import_runs r where r.finished_at < $1
        and exists (select 1 from import_runs n where n.tenant_id = r.tenant_id and n.result = r.result
                                                  and n.finished_at > r.finished_at)`,
    [eventsBefore],
  );
  // Scheduled cards stay until they are sent, however far ahead they were timed; a failed one is
  // aged from the time it was due.
  await db.query(
    `delete from e_cards where status in ('sent', 'failed') and coalesce(sent_at, send_at) < $1`,
    [eCardsBefore],
  );
  // Account events carry contact messages, addresses and e-mail addresses: they go (with their
  // deliveries and acknowledgements, on delete cascade) once dispatched, older than the retention,
  // and no delivery of theirs is still pending. The change feed keeps two kinds longer:
  // a change acknowledged within the retention (a rejection shows on the subscriber's orders page
  // for that long), and, while the tenant has a key that reads the feed, a change not yet
  // acknowledged, up to UNACKNOWLEDGED_CHANGE_RETENTION_DAYS.
  const unacknowledgedBefore = new Date(
    now.getTime() - UNACKNOWLEDGED_CHANGE_RETENTION_DAYS * 86_400_000,
  ).toISOString();
  const insightEventsBefore = new Date(
    now.getTime() - INSIGHT_EVENT_RETENTION_DAYS * 86_400_000,
  ).toISOString();
  await db.query(
    `delete from account_events e
      where e.created_at < $1 and e.dispatched_at is not null
        and (e.type <> all($3::text[]) or e.created_at < $4)
        and not exists (select 1 from webhook_deliveries d where d.tenant_id = e.tenant_id and d.event_id = e.id and d.state = 'pending')
        and not exists (select 1 from change_acknowledgements a
                         where a.tenant_id = e.tenant_id and a.event_id = e.id and a.acknowledged_at >= $1)
        and (e.created_at < $2
             or e.type = 'change.rejected'
             or exists (select 1 from change_acknowledgements a where a.tenant_id = e.tenant_id and a.event_id = e.id)
             or not exists (select 1 from operator_keys k
                             where k.tenant_id = e.tenant_id and k.revoked_at is null and 'read' = any(k.scopes)))`,
    [eventsBefore, unacknowledgedBefore, INSIGHT_EVENT_TYPES, insightEventsBefore],
  );
  // A bank account an event carries for the order system is masked after UNANSWERED_ACCOUNT_DAYS
  // when the order system did not answer its change (docs/going-live.md "Payment details the order
  // system needs").
  await maskEventAccounts(db, {
    before: new Date(now.getTime() - UNANSWERED_ACCOUNT_DAYS * 86_400_000).toISOString(),
  });
  // What the account events say already, kept as long as they (docs/subscribers.md "Download my data", the
  // personal-data catalogue): the account's activity record, the portal's copy of a contact
  // message (customer service has it in its mailbox, contact_messages.mailed_to) and a dated
  // address the order system's record carries since its day.
  await db.query(`delete from account_activity where created_at < $1`, [eventsBefore]);
  await db.query(`delete from contact_messages where created_at < $1`, [eventsBefore]);
  await db.query(`delete from future_addresses where applied_at < $1`, [eventsBefore]);
  // Kept invoice documents (docs/invoices.md "Issued documents, made once"): a version superseded
  // by a newer one and not served for SUPERSEDED_DOCUMENT_DAYS, and any of an invoice no account
  // may download any more (no account holds the paying role, AG or RE: the order system moved the
  // contract, or the account was deleted) — they would only be made again if one does.
  const supersededBefore = new Date(now.getTime() - SUPERSEDED_DOCUMENT_DAYS * 86_400_000).toISOString();
  await db.query(
    `delete from issued_invoice_documents d
      where d.served_at < $1
        and exists (select 1 from issued_invoice_documents n
                     where n.tenant_id = d.tenant_id and n.subscription_id = d.subscription_id
                       and n.payment_id = d.payment_id and n.format = d.format and n.locale = d.locale
                       and n.made_at > d.made_at)`,
    [supersededBefore],
  );
  await db.query(
    `delete from issued_invoice_documents d
      where d.made_at < $1
        and not exists (select 1 from subscription_roles r
                          join user_business_partners ubp on ubp.tenant_id = r.tenant_id and ubp.bp_number = r.bp_number
                         where r.tenant_id = d.tenant_id and r.subscription_id = d.subscription_id
                           and r.role in ('AG', 'RE'))`,
    [day],
  );
  // A subscriber's change whose event went unanswered past its retention is no longer pending
  // (migration 023): its record of the order system's values goes, and the order system's next
  // record of the row is shown as it sends it.
  await db.query(
    `delete from order_system_overlays o
      where o.event_id is not null
        and not exists (select 1 from account_events e where e.tenant_id = o.tenant_id and e.id = o.event_id)`,
  );
}
