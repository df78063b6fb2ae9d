/**
 * Rows the demo seed does not make, for one demo persona, so that every table the personal-data
 * catalogue declares exported or erased has rows of an account for the catalogue test to follow
 * through the export and the deletion. A table added to a manifest that the seed does not fill gets
 * its row here.
 */
import type { Database } from '../../../server/db/database';
import { zipOfAccount } from '../../../server/data-export/dataExportService';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { recordEvent } from '../../../server/events/recordEvent';
import { linkChangesToEvent } from '../../../server/store/orderSystemOverlays';

export async function addFixtureRows(db: Database, tenant: ServerTenant, today: Date): Promise<void> {
  const tenantId = tenant.id;
  // A persona that pays for a subscription (ordering party), with an e-mail address.
  const [persona] = await db.query<{
    userId: string;
    email: string;
    bp: string;
    subscriptionId: string;
    orderNumber: string;
  }>(
    `select u.id as "userId", u.email, ubp.bp_number::text as bp, s.id as "subscriptionId", s.order_number::text as "orderNumber"
       from users u
       join user_business_partners ubp on ubp.tenant_id = u.tenant_id and ubp.user_id = u.id
       join subscription_roles r on r.tenant_id = u.tenant_id and r.bp_number = ubp.bp_number and r.role = 'AG'
       join subscriptions s on s.tenant_id = r.tenant_id and s.id = r.subscription_id
      where u.tenant_id = $1 order by u.email, s.id limit 1`,
    [tenantId],
  );
  const { userId, email, bp, subscriptionId, orderNumber } = persona;
  const later = new Date(today.getTime() + 3_600_000).toISOString();
  const args = [tenantId, userId];
  await db.query(
    `insert into invoice_requests (tenant_id, user_id, subject_kind, subject_id, invoice_number, requested_on, status)
     values ($1, $2, 'subscription', $3, 'INV-PRIVACY-1', current_date, 'forwarded')`,
    [...args, subscriptionId],
  );
  await db.query(
    `insert into account_activity (tenant_id, user_id, action, subject_id, details)
     values ($1, $2, 'order_attribute', $3, '{"type": "DOORBELL", "value": "Ring twice at Privacy Lane"}')`,
    [...args, subscriptionId],
  );
  await db.query(
    `insert into future_addresses (tenant_id, bp_number, valid_from, address, user_id)
     values ($1, $3, current_date + 30, '{"street": "Privacystraße", "city": "Futurestadt"}', $2)`,
    [...args, bp],
  );
  await db.query(
    `insert into cancellations (tenant_id, subscription_id, user_id, reason, reason_text, feedback, type, effective_date)
     values ($1, $3, $2, 'OTHER', 'Moving abroad for a while', 'Loved the crossword', 'regular', current_date + 60)
     on conflict do nothing`,
    [...args, subscriptionId],
  );
  await db.query(
    `insert into holiday_services (tenant_id, subscription_id, user_id, type, date_from, date_to, address)
     values ($1, $3, $2, 'redirect', current_date + 10, current_date + 20, '{"street": "Ferienweg 9", "city": "Seebad"}')`,
    [...args, subscriptionId],
  );
  await db.query(
    `insert into contact_messages (tenant_id, user_id, activity, contact_details, message, opt_in, mailed_to)
     values ($1, $2, 'general', '{"firstName": "Petra"}', 'Please deliver before seven', false, 'service@privacy.example')`,
    args,
  );
  await db.query(
    `insert into e_cards (tenant_id, user_id, subscription_id, template_name, template_category, from_name, to_name, to_email,
                          message, locale, send_at, status)
     values ($1, $2, $3, 'birthday', 'birthday', 'Petra Privacy', 'Paul Recipient', 'paul@recipient.example',
             'Happy birthday, Paul!', 'en-GB', $4, 'scheduled')`,
    [...args, subscriptionId, later],
  );
  await db.query(
    `insert into license_objects (tenant_id, subscription_id, order_number, max_active_licenses, self_service_enabled)
     values ($1, $2, $3, 5, true) on conflict do nothing`,
    [tenantId, subscriptionId, orderNumber],
  );
  await db.query(
    `insert into licenses (tenant_id, subscription_id, order_number, business_partner, email, accepted_user_id, accepted_at)
     values ($1, $3, $4, '{"firstName": "Lena", "lastName1": "Licensee"}', $5, $2, now())`,
    [...args, subscriptionId, orderNumber, email],
  );
  await db.query(
    `insert into license_manager_appointments (tenant_id, subscription_id, salutation_code, first_name, last_name1, email,
                                               token_hash, appointed_by_user_id, locale)
     values ($1, $3, '2', 'Marta', 'Managerin', 'marta@manager.example', 'privacy-appointment-hash', $2, 'en-GB')`,
    [...args, subscriptionId],
  );
  await db.query(
    `insert into download_keys (tenant_id, key_hash, user_id, kind, subject_id, item, file_name, expires_at)
     values ($1, 'privacy-download-key', $2, 'delivered_issue', $3, 'issue-1', 'issue.pdf', $4)`,
    [...args, subscriptionId, later],
  );
  await db.query(
    `insert into retired_addresses (tenant_id, user_id, email) values ($1, $2, 'previous@privacy.example')`,
    args,
  );
  await db.query(
    `insert into sessions (tenant_id, id, token_hash, user_id, login_source, expires_at)
     values ($1, 'privacy-session', 'privacy-session-hash', $2, 'email', $3)`,
    [...args, later],
  );
  await db.query(
    `insert into sso_sessions (tenant_id, token_hash, user_id, expires_at) values ($1, 'privacy-sso-hash', $2, $3)`,
    [...args, later],
  );
  await db.query(
    `insert into login_tokens (tenant_id, token_hash, email, purpose, expires_at, payload)
     values ($1, 'privacy-login-hash', 'new-address@privacy.example', 'sso-email-change', $3, jsonb_build_object('userId', $2::text))`,
    [...args, later],
  );
  await db.query(
    `insert into data_exports (tenant_id, user_id, token_hash, locale, expires_at) values ($1, $2, 'privacy-export-hash', 'en-GB', $3)`,
    [...args, later],
  );
  await db.query(
    `insert into loyalty_members (tenant_id, user_id, opted_in) values ($1, $2, true) on conflict do nothing`,
    args,
  );
  // A change of the persona's own partner, pending at the order system (migration 023's trigger
  // records it, the event names the account).
  await db.transaction(async (tx) => {
    await tx.query(
      `update business_partners set city = 'Pendingstadt' where tenant_id = $1 and bp_number = $2`,
      [tenantId, bp],
    );
    const eventId = await recordEvent(tx, tenantId, 'data_export.requested', {
      userId,
      exportId: 'privacy-export',
      expiresAt: later,
    });
    await linkChangesToEvent(tx, tenantId, eventId);
  });
  // The persona's invoice documents, kept as its export makes them (migration 031), after the
  // change above: the billed party's address is one of their inputs.
  for await (const _chunk of zipOfAccount(db, tenant, userId, 'en-GB', today)) void _chunk;
}
