import type { Queryable } from '../db/database';
import { HttpError } from '../http/errors';

export interface RateLimitRule {
  /** What is limited, e.g. `login:email:anna@example.com` or `login:client:203.0.113.7`. */
  bucket: string;
  /** Window length in seconds. */
  windowSeconds: number;
  /** Most attempts per window. */
  limit: number;
}

/**
 * Fixed-window counters in the database (table rate_limits), so every server instance shares
 * them (DESIGN.md: no state in memory that another instance would need). One upsert per rule.
 */
export async function consumeRateLimit(db: Queryable, tenantId: string, rule: RateLimitRule, now: Date): Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const rows = await db.query<{ hits: number }>(
    `insert into rate_limits (tenant_id, bucket, window_start, hits) values ($1, $2, $3, 1)
     on conflict (tenant_id, bucket, window_start) do update set hits = rate_limits.hits + 1
     returning hits`,
    [tenantId, rule.bucket, windowStart.toISOString()],
  );
  if (Number(rows[0].hits) > rule.limit) {
    const retryAfter = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000);
    throw new HttpError(429, 'rate_limited', 'Too many attempts. Please wait a few minutes and try again.', { retryAfterSeconds: retryAfter });
  }
}

/**
 * Limits of the sign-in calls (login, magic link, registration, reset, token), per e-mail address
 * and per client address, in a 15-minute window. Servers read overrides from
 * PORTAL_SIGNIN_LIMIT_PER_ADDRESS and PORTAL_SIGNIN_LIMIT_PER_CLIENT (the end-to-end suites sign in
 * from one address many times).
 */
export interface SignInLimits {
  windowSeconds: number;
  perAddress: number;
  perClient: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { windowSeconds: 15 * 60, perAddress: 5, perClient: 30 };

export function signInLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): SignInLimits {
  const read = (name: string, fallback: number) => (Number(env[name]) > 0 ? Number(env[name]) : fallback);
  return {
    windowSeconds: DEFAULT_SIGN_IN_LIMITS.windowSeconds,
    perAddress: read('PORTAL_SIGNIN_LIMIT_PER_ADDRESS', DEFAULT_SIGN_IN_LIMITS.perAddress),
    perClient: read('PORTAL_SIGNIN_LIMIT_PER_CLIENT', DEFAULT_SIGN_IN_LIMITS.perClient),
  };
}

/** Consumes the per-client and per-address budgets of one sign-in attempt; 429 when one is spent. */
export async function limitSignInAttempt(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  action: string,
  subject: { address?: string; client: string },
  now: Date,
): Promise<void> {
  const windowSeconds = limits.windowSeconds;
  await consumeRateLimit(db, tenantId, { bucket: `${action}:client:${subject.client}`, windowSeconds, limit: limits.perClient }, now);
  if (subject.address) {
    await consumeRateLimit(db, tenantId, { bucket: `${action}:address:${subject.address}`, windowSeconds, limit: limits.perAddress }, now);
  }
}
