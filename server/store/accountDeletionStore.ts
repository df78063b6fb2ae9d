/**
 * Account deletion (account-flows.md §4 "SSO delete"; docs/subscribers.md "Download my data": "The
 * personal-data catalogue"): the erasure of GDPR Art. 17 across every slice's tables, the
 * counterpart of the export (server/data-export/, server/store/dataExportStore.ts). The SSO profile
 * page asks for it (POST /sso-profile/deleteUser); what each table's rows get, each slice's
 * personalData.ts declares, and tests/server/privacy/personalDataCatalogue.int.test.ts holds this
 * against the declarations. Every query is scoped by tenant.
 */
import type { Queryable } from '../db/database';

/** The address a deleted account is left with: unique, not deliverable (RFC 2606 `.invalid`). */
export const deletedAddress = (userId: string) => `deleted-${userId.toLowerCase()}@deleted.invalid`;

/**
 * Deletes an account's personal data (§4 "SSO delete"; issue: "really deletes or anonymises"):
 * its links to business partners (so no subscription is shown to anyone through it), every session
 * on every device, kicker sign-on sessions, sign-in links, download keys, loyalty membership,
 * favourites and history, e-cards, the activity record and contact messages. What stays, and
 * why, each slice's personalData.ts says (server/privacy/catalogue.ts). The users row stays, anonymised (no address, name, password or
 * SSO id), because records kept for accounting (payments, invoice requests) point at its id.
 * Loyalty codes already handed out stay taken (never handed out twice) without the account.
 */
export async function deleteAccountData(
  db: Queryable,
  tenantId: string,
  userId: string,
  email: string,
  now: Date,
): Promise<void> {
  const args = [tenantId, userId];
  await db.query(`delete from sessions where tenant_id = $1 and user_id = $2`, args);
  await db.query(`delete from sso_sessions where tenant_id = $1 and user_id = $2`, args);
  await db.query(`delete from download_keys where tenant_id = $1 and user_id = $2`, args);
  // Data-export links: the data they would open is going.
  await db.query(`delete from data_exports where tenant_id = $1 and user_id = $2`, args);
  // The invoice documents kept of the subscriptions the account pays for (migration 031): they
  // name the account's partner as buyer. The order system's payment record stays (its invoice is
  // the publisher's to keep, §147 AO); a document is made again should another account download it.
  await db.query(
    `delete from issued_invoice_documents d
      where d.tenant_id = $1
        and exists (select 1 from subscription_roles r
                      join user_business_partners ubp on ubp.tenant_id = r.tenant_id and ubp.bp_number = r.bp_number
                     where r.tenant_id = d.tenant_id and r.subscription_id = d.subscription_id
                       and r.role in ('AG', 'RE') and ubp.user_id = $2)`,
    args,
  );
  await db.query(`delete from user_business_partners where tenant_id = $1 and user_id = $2`, args);
  await db.query(`delete from retired_addresses where tenant_id = $1 and user_id = $2`, args);
  // The activity record, and the portal's copy of the account's contact messages: customer service
  // has each message in its mailbox (contact_messages.mailed_to), the portal needs no copy of it
  // without the account (docs/subscribers.md "Download my data": the personal-data catalogue).
  await db.query(`delete from account_activity where tenant_id = $1 and user_id = $2`, args);
  await db.query(`delete from contact_messages where tenant_id = $1 and user_id = $2`, args);
  await db.query(
    `delete from login_tokens where tenant_id = $1 and (email = $2 or payload->>'userId' = $3)`,
    [tenantId, email, userId],
  );
  await db.query(`delete from loyalty_favorites where tenant_id = $1 and user_id = $2`, args);
  await db.query(`delete from loyalty_claims where tenant_id = $1 and user_id = $2`, args);
  await db.query(`delete from loyalty_members where tenant_id = $1 and user_id = $2`, args);
  await db.query(`update loyalty_codes set claimed_by = null where tenant_id = $1 and claimed_by = $2`, args);
  // E-cards (migration 011) carry names, addresses and messages; scheduled ones must not go out either.
  const [eCards] = await db.query<{ present: boolean }>(
    `select to_regclass('e_cards') is not null as present`,
  );
  if (eCards?.present) await db.query(`delete from e_cards where tenant_id = $1 and user_id = $2`, args);
  await db.query(
    `update users set email = $3, display_name = null, first_name = null, last_name = null, password_hash = null, sso_id = null, deleted_at = $4
      where tenant_id = $1 and id = $2`,
    [tenantId, userId, deletedAddress(userId), now.toISOString()],
  );
}
