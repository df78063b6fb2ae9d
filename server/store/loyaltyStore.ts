/**
 * SQL of the loyalty programme (migration 012; account-flows.md §3 loyalty user, tier, reward,
 * claim, history entry). Every query is scoped by tenant; a code is taken from its pool with
 * FOR UPDATE SKIP LOCKED so concurrent claims never get the same code.
 */
import type { Queryable } from '../db/database';

export interface TierRow {
  tier_code: string;
  position: number;
  name: Record<string, string>;
  description: Record<string, string>;
  runtime_to_reach: number;
  reached_icon_url: string | null;
  locked_icon_url: string | null;
}

export interface RewardRow {
  id: string;
  tier_code: string;
  position: number;
  name: Record<string, string>;
  description: Record<string, string>;
  icon_url: string | null;
  main_image_url: string | null;
  reward_type: string;
  claimable: boolean;
  target_url: string | null;
  consent: Record<string, string> | null;
}

export interface ClaimRow {
  reward_id: string;
  code: string | null;
  claimed_at: Date;
  /** Rejected by the order system: the reward stays used, the claim is off the history. */
  rejected_at: Date | null;
}

export async function tiersOf(db: Queryable, tenantId: string): Promise<TierRow[]> {
  return db.query<TierRow>(
    `select tier_code, position, name, description, runtime_to_reach, reached_icon_url, locked_icon_url
       from loyalty_tiers where tenant_id = $1 order by position, tier_code`,
    [tenantId],
  );
}

export async function rewardsOf(db: Queryable, tenantId: string): Promise<RewardRow[]> {
  return db.query<RewardRow>(
    `select id, tier_code, position, name, description, icon_url, main_image_url, reward_type, claimable, target_url, consent
       from loyalty_rewards where tenant_id = $1 order by tier_code, position, id`,
    [tenantId],
  );
}

export async function rewardById(
  db: Queryable,
  tenantId: string,
  rewardId: string,
): Promise<RewardRow | undefined> {
  const rows = await db.query<RewardRow>(
    `select id, tier_code, position, name, description, icon_url, main_image_url, reward_type, claimable, target_url, consent
       from loyalty_rewards where tenant_id = $1 and id = $2`,
    [tenantId, rewardId],
  );
  return rows[0];
}

export async function tierByCode(
  db: Queryable,
  tenantId: string,
  tierCode: string,
): Promise<TierRow | undefined> {
  const rows = await db.query<TierRow>(
    `select tier_code, position, name, description, runtime_to_reach, reached_icon_url, locked_icon_url from loyalty_tiers where tenant_id = $1 and tier_code = $2`,
    [tenantId, tierCode],
  );
  return rows[0];
}

/** The opt-in; with `lock`, the member row is locked so one member's changes and claims run one after another. */
export async function memberOptIn(
  db: Queryable,
  tenantId: string,
  userId: string,
  lock = false,
): Promise<boolean> {
  const rows = await db.query<{ opted_in: boolean }>(
    `select opted_in from loyalty_members where tenant_id = $1 and user_id = $2${lock ? ' for update' : ''}`,
    [tenantId, userId],
  );
  return rows[0]?.opted_in ?? false;
}

export async function setMemberOptIn(
  db: Queryable,
  tenantId: string,
  userId: string,
  optedIn: boolean,
): Promise<void> {
  await db.query(
    `insert into loyalty_members (tenant_id, user_id, opted_in, changed_at) values ($1, $2, $3, now())
     on conflict (tenant_id, user_id) do update set opted_in = excluded.opted_in, changed_at = now()`,
    [tenantId, userId, optedIn],
  );
}

export async function favoritesOf(db: Queryable, tenantId: string, userId: string): Promise<string[]> {
  const rows = await db.query<{ reward_id: string }>(
    `select reward_id from loyalty_favorites where tenant_id = $1 and user_id = $2 order by created_at, reward_id`,
    [tenantId, userId],
  );
  return rows.map((r) => r.reward_id);
}

export async function setFavorite(
  db: Queryable,
  tenantId: string,
  userId: string,
  rewardId: string,
  favorite: boolean,
): Promise<boolean> {
  const rows = favorite
    ? await db.query(
        `insert into loyalty_favorites (tenant_id, user_id, reward_id) values ($1, $2, $3) on conflict do nothing returning 1`,
        [tenantId, userId, rewardId],
      )
    : await db.query(
        `delete from loyalty_favorites where tenant_id = $1 and user_id = $2 and reward_id = $3 returning 1`,
        [tenantId, userId, rewardId],
      );
  return rows.length > 0;
}

export async function claimsOf(db: Queryable, tenantId: string, userId: string): Promise<ClaimRow[]> {
  return db.query<ClaimRow>(
    `select reward_id, code, claimed_at, rejected_at from loyalty_claims where tenant_id = $1 and user_id = $2 order by claimed_at desc, reward_id`,
    [tenantId, userId],
  );
}

/** Records the claim; false when the member has claimed the reward before (a reward is claimed once). */
export async function insertClaim(
  db: Queryable,
  tenantId: string,
  userId: string,
  rewardId: string,
  code: string | null,
  at: Date,
): Promise<boolean> {
  const rows = await db.query(
    `insert into loyalty_claims (tenant_id, user_id, reward_id, code, claimed_at) values ($1, $2, $3, $4, $5) on conflict do nothing returning 1`,
    [tenantId, userId, rewardId, code, at.toISOString()],
  );
  return rows.length > 0;
}

/**
 * Takes one free code of the reward's pool for the member: the first free row not locked by another
 * claim (SKIP LOCKED), marked taken in the same statement. Null when the pool is empty.
 */
export async function takeCode(
  db: Queryable,
  tenantId: string,
  rewardId: string,
  userId: string,
  at: Date,
): Promise<string | null> {
  const rows = await db.query<{ code: string }>(
    `update loyalty_codes set claimed_by = $3, claimed_at = $4
      where (tenant_id, reward_id, code) = (
        select tenant_id, reward_id, code from loyalty_codes
         where tenant_id = $1 and reward_id = $2 and claimed_at is null
         order by code
         limit 1
         for update skip locked)
      returning code`,
    [tenantId, rewardId, userId, at.toISOString()],
  );
  return rows[0]?.code ?? null;
}

/**
 * Start days of the subscriptions the account speaks for (through its business partners' roles):
 * valid from, else the order date. The runtime is counted from the earliest (engine/domain/loyalty.ts).
 */
export async function subscriptionStarts(db: Queryable, tenantId: string, userId: string): Promise<string[]> {
  const rows = await db.query<{ start: string | null }>(
    `select distinct to_char(coalesce(s.valid_from, s.cust_order_date), 'YYYY-MM-DD') as start
       from user_business_partners ubp
       join subscription_roles r on r.tenant_id = ubp.tenant_id and r.bp_number = ubp.bp_number
       join subscriptions s on s.tenant_id = r.tenant_id and s.id = r.subscription_id
      where ubp.tenant_id = $1 and ubp.user_id = $2 and not r.via_license`,
    [tenantId, userId],
  );
  return rows.map((r) => r.start).filter((d): d is string => Boolean(d));
}
