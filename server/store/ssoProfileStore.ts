/**
 * SQL of the SSO profile page (account-flows.md §2 "SSO profile", §4 "SSO delete"): the pending
 * e-mail change (a login token of purpose `sso-email-change` whose payload names the account), the
 * new address. Every query is scoped by tenant. The deletion of an account's personal data, which
 * the page asks for, reaches every slice's tables and has a store of its own (accountDeletionStore.ts).
 */
import type { Queryable } from '../db/database';

export const EMAIL_CHANGE_PURPOSE = 'sso-email-change';
/**
 * The link the notice to the old address carries (a login token of this purpose, of the old
 * address, whose payload names the account and the new address): the old mailbox takes the
 * account back.
 */
export const EMAIL_CHANGE_UNDO_PURPOSE = 'sso-email-change-undo';

/**
 * Spends an undo link's token. Answers the account, the address it had (the token's) and when the
 * link was made, or null when spent, expired or made up.
 */
export async function consumeEmailChangeUndo(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string; previous: string; madeAt: Date } | null> {
  const rows = await db.query<{ userId: string; previous: string; madeAt: Date }>(
    `update login_tokens set used_at = $4
      where tenant_id = $1 and token_hash = $2 and purpose = $3 and used_at is null and expires_at > $4
      returning payload->>'userId' as "userId", email as previous, created_at as "madeAt"`,
    [tenantId, tokenHash, EMAIL_CHANGE_UNDO_PURPOSE, now.toISOString()],
  );
  return rows[0] ?? null;
}

/**
 * Voids the undo links of the changes made after the one taken back (made with or after its link):
 * they were mailed to the addresses the account moved to since, which a stolen session chose, and
 * would take the account from the mailbox that just took it back. The links of earlier changes
 * stay: an older mailbox can still take the account back.
 */
export async function voidLaterEmailChangeUndos(
  db: Queryable,
  tenantId: string,
  userId: string,
  madeAt: Date,
  now: Date,
): Promise<void> {
  await db.query(
    `update login_tokens set used_at = $5
      where tenant_id = $1 and purpose = $2 and payload->>'userId' = $3 and used_at is null and created_at >= $4`,
    [tenantId, EMAIL_CHANGE_UNDO_PURPOSE, userId, madeAt, now.toISOString()],
  );
}

/** Ends every session of the account (the old mailbox took the account back). */
export async function revokeAllSessions(db: Queryable, tenantId: string, userId: string): Promise<void> {
  await db.query(
    `update sessions set revoked_at = now() where tenant_id = $1 and user_id = $2 and revoked_at is null`,
    [tenantId, userId],
  );
}

/** Removes the account's password: whoever set it since the change may know it. */
export async function clearPassword(db: Queryable, tenantId: string, userId: string): Promise<void> {
  await db.query(`update users set password_hash = null where tenant_id = $1 and id = $2`, [
    tenantId,
    userId,
  ]);
}

/** The new address waiting for its link, if any (the newest live token of the account). */
export async function pendingEmailChange(
  db: Queryable,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<string | null> {
  const rows = await db.query<{ email: string }>(
    `select email from login_tokens
      where tenant_id = $1 and purpose = $2 and payload->>'userId' = $3 and used_at is null and expires_at > $4
      order by created_at desc limit 1`,
    [tenantId, EMAIL_CHANGE_PURPOSE, userId, now.toISOString()],
  );
  return rows[0]?.email ?? null;
}

/** A new request replaces the earlier ones: their links stop working. */
export async function voidEmailChanges(
  db: Queryable,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<void> {
  await db.query(
    `update login_tokens set used_at = $4 where tenant_id = $1 and purpose = $2 and payload->>'userId' = $3 and used_at is null`,
    [tenantId, EMAIL_CHANGE_PURPOSE, userId, now.toISOString()],
  );
}

/**
 * Spends the link's token, only for the account it was made for (another signed-in account that
 * opens the link spends nothing). Answers the new address, or null when spent, expired or foreign.
 */
export async function consumeEmailChange(
  db: Queryable,
  tenantId: string,
  userId: string,
  tokenHash: string,
  now: Date,
): Promise<string | null> {
  const rows = await db.query<{ email: string }>(
    `update login_tokens set used_at = $5
      where tenant_id = $1 and token_hash = $2 and purpose = $3 and payload->>'userId' = $4 and used_at is null and expires_at > $5
      returning email`,
    [tenantId, tokenHash, EMAIL_CHANGE_PURPOSE, userId, now.toISOString()],
  );
  return rows[0]?.email ?? null;
}

/** Whether another live account of the tenant signs in with the address. */
export async function emailTaken(
  db: Queryable,
  tenantId: string,
  email: string,
  exceptUserId: string,
): Promise<boolean> {
  const rows = await db.query(`select 1 from users where tenant_id = $1 and email = $2 and id <> $3`, [
    tenantId,
    email,
    exceptUserId,
  ]);
  return rows.length > 0;
}

export async function setUserEmail(
  db: Queryable,
  tenantId: string,
  userId: string,
  email: string,
): Promise<void> {
  await db.query(`update users set email = $3 where tenant_id = $1 and id = $2`, [tenantId, userId, email]);
}

/**
 * The account moved from `from` to `to` (migration 045): the old address proves nothing more for
 * its business partners (address_on_record), and the new one, should it be an address it had left
 * before, is its own again.
 */
export async function retireAddress(
  db: Queryable,
  tenantId: string,
  userId: string,
  change: { from: string; to: string },
): Promise<void> {
  await db.query(
    `with back as (delete from retired_addresses where tenant_id = $1 and user_id = $2 and email = $4)
     insert into retired_addresses (tenant_id, user_id, email) values ($1, $2, $3)
     on conflict (tenant_id, user_id, email) do update set retired_at = now()`,
    [tenantId, userId, change.from.trim().toLowerCase(), change.to.trim().toLowerCase()],
  );
}

/** Ends every session of the account but the current one (after a password change). */
export async function revokeOtherSessions(
  db: Queryable,
  tenantId: string,
  userId: string,
  keepSessionId: string,
): Promise<void> {
  await db.query(
    `update sessions set revoked_at = now() where tenant_id = $1 and user_id = $2 and id <> $3 and revoked_at is null`,
    [tenantId, userId, keepSessionId],
  );
}
