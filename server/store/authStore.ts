import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';
import type { CountedPlace } from './rateLimitStore';

/** SQL for sessions and single-use login tokens (tables of migration 001). Every query is tenant-scoped. */

export interface SessionRow {
  id: string;
  user_id: string;
  user_email: string;
  login_source: string;
  subscription_id: string | null;
  last_seen_at: Date;
  expires_at: Date;
  /** The tenant's subscription data version and the database's day (migration 015), read with the session. */
  subscription_data_version: string;
}

export async function insertSession(
  db: Queryable,
  tenantId: string,
  session: {
    tokenHash: string;
    userId: string;
    loginSource: string;
    expiresAt: Date;
    subscriptionId?: string;
  },
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into sessions (tenant_id, id, token_hash, user_id, login_source, expires_at, subscription_id)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      tenantId,
      id,
      session.tokenHash,
      session.userId,
      session.loginSource,
      session.expiresAt.toISOString(),
      session.subscriptionId ?? null,
    ],
  );
  return id;
}

export async function findLiveSession(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
): Promise<SessionRow | undefined> {
  const rows = await db.query<SessionRow>(
    // One round trip per authenticated request: the session, its user's e-mail and what
    // GET /subscriptions needs to reuse an earlier answer (server/subscription/subscriptionListCache.ts):
    // the tenant's data version and the day, as next issues change with it.
    `select s.id, s.user_id, u.email as user_email, s.login_source, s.subscription_id, s.last_seen_at, s.expires_at,
            coalesce((select v.version from subscription_data_versions v where v.tenant_id = $1), 0) || ':' || current_date
              as subscription_data_version
       from sessions s join users u on u.tenant_id = s.tenant_id and u.id = s.user_id
      where s.tenant_id = $1 and s.token_hash = $2 and s.revoked_at is null`,
    [tenantId, tokenHash],
  );
  return rows[0];
}

export async function touchSession(
  db: Queryable,
  tenantId: string,
  sessionId: string,
  expiresAt: Date,
): Promise<void> {
  await db.query(
    `update sessions set last_seen_at = now(), expires_at = $3 where tenant_id = $1 and id = $2`,
    [tenantId, sessionId, expiresAt.toISOString()],
  );
}

export async function revokeSession(db: Queryable, tenantId: string, sessionId: string): Promise<void> {
  await db.query(`update sessions set revoked_at = now() where tenant_id = $1 and id = $2`, [
    tenantId,
    sessionId,
  ]);
}

export async function insertLoginToken(
  db: Queryable,
  tenantId: string,
  token: {
    tokenHash: string;
    email: string;
    purpose: string;
    expiresAt: Date;
    payload?: unknown;
    /** The budget places of the request that asked for the link, given back when it is spent. */
    countedIn?: readonly CountedPlace[];
  },
): Promise<void> {
  await db.query(
    `insert into login_tokens (tenant_id, token_hash, email, purpose, expires_at, payload, counted_in)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      tenantId,
      token.tokenHash,
      token.email,
      token.purpose,
      token.expiresAt.toISOString(),
      token.payload === undefined ? null : JSON.stringify(token.payload),
      token.countedIn?.length ? JSON.stringify(token.countedIn) : null,
    ],
  );
}

/**
 * Marks a token used and returns its e-mail in one statement, so two racing requests cannot both
 * spend it (single use). Expired, used or foreign-tenant tokens, and tokens of another purpose,
 * return undefined. A spent link was a success: the budget places its request took are given back
 * (migration 035), in the caller's transaction.
 */
export async function consumeLoginToken(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
  purpose: string | readonly string[],
  now: Date,
): Promise<{ email: string; purpose: string; payload: unknown } | undefined> {
  const rows = await db.query<{ email: string; purpose: string; payload: unknown }>(
    `with spent as (
       update login_tokens set used_at = $4
        where tenant_id = $1 and token_hash = $2 and purpose = any($3::text[]) and used_at is null and expires_at > $4
        returning email, purpose, payload, counted_in),
     given_back as (
       update rate_limits r set hits = greatest(r.hits - 1, 0)
         from spent, jsonb_to_recordset(coalesce(spent.counted_in, '[]'::jsonb)) as c("bucket" text, "windowStart" timestamptz)
        where r.tenant_id = $1 and r.bucket = c."bucket" and r.window_start = c."windowStart")
     select email, purpose, payload from spent`,
    [tenantId, tokenHash, typeof purpose === 'string' ? [purpose] : [...purpose], now.toISOString()],
  );
  return rows[0];
}

/**
 * Voids the live links of `purposes` mailed to an address (a password reset: a link mailed before
 * it must not sign in, or reset again, after the owner has shut everyone else out). They read as
 * spent from then on.
 */
export async function voidLoginTokens(
  db: Queryable,
  tenantId: string,
  email: string,
  purposes: readonly string[],
  now: Date,
): Promise<void> {
  await db.query(
    `update login_tokens set used_at = $4
      where tenant_id = $1 and email = $2 and purpose = any($3::text[]) and used_at is null and expires_at > $4`,
    [tenantId, email, [...purposes], now.toISOString()],
  );
}

/** The address of a token already spent (a link opened a second time), if it is still kept. */
export async function spentLoginTokenEmail(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
  purpose: string,
): Promise<string | undefined> {
  const rows = await db.query<{ email: string }>(
    `select email from login_tokens
      where tenant_id = $1 and token_hash = $2 and purpose = $3 and used_at is not null`,
    [tenantId, tokenHash, purpose],
  );
  return rows[0]?.email;
}

/** A live token's address, purpose and payload, left unspent (a page that shows what the token will do). */
export async function peekLoginToken(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
  purpose: string,
  now: Date,
): Promise<{ email: string; purpose: string; payload: unknown } | undefined> {
  const rows = await db.query<{ email: string; purpose: string; payload: unknown }>(
    `select email, purpose, payload from login_tokens
      where tenant_id = $1 and token_hash = $2 and purpose = $3 and used_at is null and expires_at > $4`,
    [tenantId, tokenHash, purpose, now.toISOString()],
  );
  return rows[0];
}

/** Ends every session of a user (after a password reset). */
export async function revokeUserSessions(db: Queryable, tenantId: string, userId: string): Promise<void> {
  await db.query(
    `update sessions set revoked_at = now() where tenant_id = $1 and user_id = $2 and revoked_at is null`,
    [tenantId, userId],
  );
}
