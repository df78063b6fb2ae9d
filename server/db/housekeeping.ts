import type { Database } from './database';

/**
 * Deletes what nothing reads any more: spent or expired sign-in tokens, OAuth requests, download
 * keys and SSO sessions, ended sessions a week after their end, rate-limit windows older than a
 * day. Runs at start and then hourly in every instance; the deletes are idempotent, so several
 * instances doing it at once is harmless.
 */
export async function deleteExpiredRows(db: Database, now: Date): Promise<void> {
  const day = new Date(now.getTime() - 86_400_000).toISOString();
  const week = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const at = now.toISOString();
  await db.query(`delete from rate_limits where window_start < $1`, [day]);
  await db.query(`delete from login_tokens where expires_at < $1`, [day]);
  await db.query(`delete from oauth_requests where expires_at < $1`, [at]);
  await db.query(`delete from download_keys where expires_at < $1`, [at]);
  await db.query(`delete from sso_sessions where expires_at < $1 or revoked_at < $2`, [at, week]);
  await db.query(`delete from sessions where coalesce(revoked_at, expires_at) < $1`, [week]);
}

export function startHousekeeping(db: Database, log: (entry: Record<string, unknown>) => void): () => void {
  const run = () =>
    deleteExpiredRows(db, new Date()).catch((error) => log({ level: 'warn', msg: 'housekeeping failed', error: String(error) }));
  void run();
  const timer = setInterval(run, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
