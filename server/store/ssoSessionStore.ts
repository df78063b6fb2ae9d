/** SQL of the kicker-auth sign-on sessions (table sso_sessions); the SSO id is stored only as its hash. */
import type { Queryable } from '../db/database';

export async function insertSsoSession(
  db: Queryable,
  tenantId: string,
  session: { tokenHash: string; userId: string; expiresAt: Date },
): Promise<void> {
  await db.query(
    `insert into sso_sessions (tenant_id, token_hash, user_id, expires_at) values ($1, $2, $3, $4)`,
    [tenantId, session.tokenHash, session.userId, session.expiresAt.toISOString()],
  );
}

/** The user of a live (not revoked, not expired) SSO session, or undefined. */
export async function findLiveSsoSessionUser(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
  now: Date,
): Promise<string | undefined> {
  const rows = await db.query<{ user_id: string }>(
    `select user_id from sso_sessions where tenant_id = $1 and token_hash = $2 and revoked_at is null and expires_at > $3`,
    [tenantId, tokenHash, now.toISOString()],
  );
  return rows[0]?.user_id;
}

export async function revokeSsoSessionsOfUser(
  db: Queryable,
  tenantId: string,
  userId: string,
): Promise<void> {
  await db.query(
    `update sso_sessions set revoked_at = now() where tenant_id = $1 and user_id = $2 and revoked_at is null`,
    [tenantId, userId],
  );
}
