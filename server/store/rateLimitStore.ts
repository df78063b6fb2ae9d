/** SQL of the fixed-window counters (table rate_limits) behind server/auth/rateLimit.ts: count, read, give back. */
import type { Queryable } from '../db/database';

/** A place a request took in a rate-limit budget: its row of rate_limits, to give back on success. */
export interface CountedPlace {
  bucket: string;
  windowStart: string;
}

/** Adds one hit to the window and answers the window's count. */
export async function incrementWindow(
  db: Queryable,
  tenantId: string,
  bucket: string,
  windowStart: Date,
  now: Date,
): Promise<number> {
  const rows = await db.query<{ hits: number }>(
    `insert into rate_limits (tenant_id, bucket, window_start, hits, last_hit_at) values ($1, $2, $3, 1, $4)
     on conflict (tenant_id, bucket, window_start) do update set hits = rate_limits.hits + 1, last_hit_at = excluded.last_hit_at
     returning hits`,
    [tenantId, bucket, windowStart.toISOString(), now.toISOString()],
  );
  return Number(rows[0].hits);
}

/** The window's count and its last hit, without counting. */
export async function readWindow(
  db: Queryable,
  tenantId: string,
  bucket: string,
  windowStart: Date,
): Promise<{ hits: number; lastHitAt?: Date }> {
  const rows = await db.query<{ hits: number; last_hit_at: Date | string | null }>(
    `select hits, last_hit_at from rate_limits where tenant_id = $1 and bucket = $2 and window_start = $3`,
    [tenantId, bucket, windowStart.toISOString()],
  );
  if (!rows[0]) return { hits: 0 };
  return {
    hits: Number(rows[0].hits),
    lastHitAt: rows[0].last_hit_at ? new Date(rows[0].last_hit_at) : undefined,
  };
}

/** Takes one hit back from the window (an attempt that turned out a success), never below zero. */
export async function decrementWindow(
  db: Queryable,
  tenantId: string,
  bucket: string,
  windowStart: Date,
): Promise<void> {
  await db.query(
    `update rate_limits set hits = greatest(hits - 1, 0) where tenant_id = $1 and bucket = $2 and window_start = $3`,
    [tenantId, bucket, windowStart.toISOString()],
  );
}
