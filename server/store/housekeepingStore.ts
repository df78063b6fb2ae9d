/**
 * SQL of the hourly clean-up (server/db/housekeeping.ts): what nothing reads any more, and personal
 * data past its use. Every statement is idempotent, so several instances running it at once is
 * harmless.
 */
import type { Queryable } from '../db/database';

/** How long account events and their deliveries are kept once every delivery has ended. */
export const EVENT_RETENTION_DAYS = 90;

export async function deleteExpiredRows(db: Queryable, now: Date): Promise<void> {
  const day = new Date(now.getTime() - 86_400_000).toISOString();
  const week = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const eventsBefore = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  const at = now.toISOString();
  await db.query(`delete from rate_limits where window_start < $1`, [day]);
  await db.query(`delete from login_tokens where expires_at < $1`, [day]);
  await db.query(`delete from oauth_requests where expires_at < $1`, [at]);
  await db.query(`delete from download_keys where expires_at < $1`, [at]);
  await db.query(`delete from sso_sessions where expires_at < $1 or revoked_at < $2`, [at, week]);
  await db.query(`delete from sessions where coalesce(revoked_at, expires_at) < $1`, [week]);
  // Account events carry contact messages, addresses and e-mail addresses: they go (with their
  // deliveries, on delete cascade) once dispatched, older than the retention, and no delivery of
  // theirs is still pending.
  await db.query(
    `delete from account_events e
      where e.created_at < $1 and e.dispatched_at is not null
        and not exists (select 1 from webhook_deliveries d where d.tenant_id = e.tenant_id and d.event_id = e.id and d.state = 'pending')`,
    [eventsBefore],
  );
}
