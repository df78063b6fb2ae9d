/**
 * The loyalty programme's service (account-flows.md §2 "Loyalty programme", §3, §4 "Reward claim",
 * "Loyalty opt-out", §7, §8): every call checks the tenant's `loyalty-programme` flag and the
 * signed-in user; favourites, claims and the history need the opt-in; a claim is refused by the same
 * engine/domain rule (`claimRefusal`) the reward page shows its notice by. Each change runs in one
 * transaction with its account event.
 *
 * Runtime (§3 "Loyalty user: runtime"): whole months since the earliest start of a subscription the
 * account speaks for (engine/domain/loyalty.ts `runtimeMonths`), computed on every call, so it grows
 * by itself and follows linked subscriptions.
 */
import type { Database, Queryable } from '../db/database';
import type {
  LoyaltyClaimAnswer,
  LoyaltyFavoriteAnswer,
  LoyaltyHistoryEntry,
  LoyaltyOptInAnswer,
  LoyaltyReward,
  LoyaltyText,
  LoyaltyTiersAnswer,
} from '../../schemas/generated/loyalty';
import { claimRefusal, rewardKind, runtimeMonths } from '../../engine/domain/loyalty';
import { LOCALES } from '../../engine/domain/locales';
import { HttpError, notFound } from '../http/errors';
import { recordEvent } from '../events/recordEvent';
import type { AccountCaller } from '../account/accountContext';
import {
  claimsOf,
  favoritesOf,
  insertClaim,
  memberOptIn,
  rewardById,
  rewardsOf,
  setFavorite,
  setMemberOptIn,
  subscriptionStarts,
  takeCode,
  tierByCode,
  tiersOf,
  type RewardRow,
} from '../store/loyaltyStore';

/** A shop link is followed by the browser (window.location): only an https URL ever leaves the server. */
function shopUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** §8 loyalty errors, one code each; the screen maps them to its texts (engine/features/loyalty-programme/loyaltyOutcomes.ts). */
export const LOYALTY_ERRORS = {
  not_opted_in: () => new HttpError(403, 'loyalty_not_opted_in', 'Please join the loyalty programme first.'),
  not_available: () =>
    new HttpError(
      403,
      'loyalty_reward_not_available',
      'This reward belongs to a tier you have not reached yet.',
    ),
  already_used: () => new HttpError(409, 'loyalty_reward_used', 'You have claimed this reward already.'),
  not_claimable: () =>
    new HttpError(409, 'loyalty_reward_not_claimable', 'This reward cannot be claimed online.'),
  claim_failed: () =>
    new HttpError(
      409,
      'loyalty_claim_failed',
      'The reward could not be claimed: there are no codes left. Please try again later.',
    ),
} as const;

/** A stored text per locale as the API answers it: the portal's locales that have one, every one of them (LOCALES). */
export const loyaltyText = (value: Record<string, string> | null): LoyaltyText | null =>
  value
    ? Object.fromEntries(
        LOCALES.filter((locale) => typeof value[locale] === 'string').map((l) => [l, value[l]]),
      )
    : null;

export function createLoyaltyService(deps: { db: Database; now: () => Date }) {
  const { db } = deps;
  const today = () => deps.now().toISOString().slice(0, 10);

  async function runtimeOf(tx: Queryable, caller: AccountCaller): Promise<number> {
    return runtimeMonths(await subscriptionStarts(tx, caller.tenant.id, caller.user.id), today());
  }

  /** `used`: the member's claims, a rejected one too (a reward is claimed once); `handedOut`: those not rejected. */
  function rewardView(
    r: RewardRow,
    used: Set<string>,
    handedOut: Set<string>,
    favorites: Set<string>,
  ): LoyaltyReward {
    const isUsed = used.has(r.id);
    return {
      id: r.id,
      name: loyaltyText(r.name)!,
      description: loyaltyText(r.description)!,
      iconUrl: r.icon_url,
      mainImageUrl: r.main_image_url,
      rewardType: r.reward_type,
      claimable: r.claimable,
      used: isUsed,
      // A shop link is handed out by the claim (§4), and stays in the history afterwards.
      targetURL:
        handedOut.has(r.id) && rewardKind(r.reward_type) === 'shop-link' ? shopUrl(r.target_url) : null,
      consent: loyaltyText(r.consent),
      tierCode: r.tier_code,
      favorite: favorites.has(r.id),
    };
  }

  async function requireOptIn(tx: Queryable, caller: AccountCaller, lock = false) {
    if (!(await memberOptIn(tx, caller.tenant.id, caller.user.id, lock))) throw LOYALTY_ERRORS.not_opted_in();
  }

  return {
    /** GET /tiers: the member (runtime, opt-in, favourites) and every tier with its rewards. */
    async tiers(caller: AccountCaller): Promise<LoyaltyTiersAnswer> {
      const tenantId = caller.tenant.id;
      const [tiers, rewards, favorites, claims, optedIn, runtime] = await Promise.all([
        tiersOf(db, tenantId),
        rewardsOf(db, tenantId),
        favoritesOf(db, tenantId, caller.user.id),
        claimsOf(db, tenantId, caller.user.id),
        memberOptIn(db, tenantId, caller.user.id),
        runtimeOf(db, caller),
      ]);
      const used = new Set(claims.map((c) => c.reward_id));
      const handedOut = new Set(claims.filter((c) => c.rejected_at === null).map((c) => c.reward_id));
      const favored = new Set(favorites);
      return {
        user: { runtime, optedIn, favorites },
        tiers: tiers.map((t) => ({
          id: t.tier_code,
          tierCode: t.tier_code,
          name: loyaltyText(t.name)!,
          description: loyaltyText(t.description)!,
          runtimeToReach: t.runtime_to_reach,
          reachedIconUrl: t.reached_icon_url,
          lockedIconUrl: t.locked_icon_url,
          reached: runtime >= t.runtime_to_reach,
          rewards: rewards
            .filter((r) => r.tier_code === t.tier_code)
            .map((r) => rewardView(r, used, handedOut, favored)),
        })),
      };
    },

    async optIn(caller: AccountCaller): Promise<LoyaltyOptInAnswer> {
      return { success: true, loyaltyOption: await memberOptIn(db, caller.tenant.id, caller.user.id) };
    },

    /** POST /optin: join or leave; a change records its event, the same value again changes nothing. */
    async setOptIn(caller: AccountCaller, loyaltyOption: boolean): Promise<LoyaltyOptInAnswer> {
      return db.transaction(async (tx) => {
        const before = await memberOptIn(tx, caller.tenant.id, caller.user.id, true);
        if (before !== loyaltyOption) {
          await setMemberOptIn(tx, caller.tenant.id, caller.user.id, loyaltyOption);
          await recordEvent(tx, caller.tenant.id, loyaltyOption ? 'loyalty.opted_in' : 'loyalty.opted_out', {
            userId: caller.user.id,
          });
        }
        return { success: true, loyaltyOption };
      });
    },

    async setFavorite(
      caller: AccountCaller,
      rewardId: string,
      favorite: boolean,
    ): Promise<LoyaltyFavoriteAnswer> {
      return db.transaction(async (tx) => {
        await requireOptIn(tx, caller);
        if (!(await rewardById(tx, caller.tenant.id, rewardId))) throw notFound('There is no such reward.');
        if (await setFavorite(tx, caller.tenant.id, caller.user.id, rewardId, favorite)) {
          await recordEvent(tx, caller.tenant.id, 'loyalty.favorite_changed', {
            userId: caller.user.id,
            rewardId,
            favorite,
          });
        }
        return { success: true, favorite };
      });
    },

    /**
     * POST /claim-reward (§4 "Reward claim"): opted in, tier reached, not used, claimable; then a code
     * from the pool (G) or the shop link (L, 3). The member row is locked, so one member's claims run
     * one after another; codes are taken with SKIP LOCKED, so members' claims run side by side and
     * never share a code. An empty pool rolls everything back (claim failed).
     */
    async claim(caller: AccountCaller, tierCode: string, rewardId: string): Promise<LoyaltyClaimAnswer> {
      const { tenant, user } = caller;
      return db.transaction(async (tx) => {
        const optedIn = await memberOptIn(tx, tenant.id, user.id, true);
        const reward = await rewardById(tx, tenant.id, rewardId);
        if (!reward || reward.tier_code !== tierCode) throw notFound('There is no such reward in this tier.');
        const tier = (await tierByCode(tx, tenant.id, tierCode))!;
        const used = (await claimsOf(tx, tenant.id, user.id)).some((c) => c.reward_id === rewardId);
        const refusal = claimRefusal(
          { claimable: reward.claimable, used, rewardType: reward.reward_type },
          { tierCode, runtimeToReach: tier.runtime_to_reach },
          { optedIn, runtime: await runtimeOf(tx, caller) },
        );
        if (refusal) throw LOYALTY_ERRORS[refusal]();
        const at = deps.now();
        const kind = rewardKind(reward.reward_type);
        const code = kind === 'code' ? await takeCode(tx, tenant.id, rewardId, user.id, at) : null;
        if (kind === 'code' && !code) throw LOYALTY_ERRORS.claim_failed();
        if (kind === 'shop-link' && !shopUrl(reward.target_url)) throw LOYALTY_ERRORS.claim_failed();
        if (!(await insertClaim(tx, tenant.id, user.id, rewardId, code, at)))
          throw LOYALTY_ERRORS.already_used();
        await recordEvent(tx, tenant.id, 'loyalty.reward_claimed', {
          userId: user.id,
          rewardId,
          tierCode,
          rewardType: reward.reward_type,
        });
        return {
          success: true,
          codeValue: code,
          targetURL: kind === 'shop-link' ? shopUrl(reward.target_url) : null,
        };
      });
    },

    async history(caller: AccountCaller): Promise<LoyaltyHistoryEntry[]> {
      await requireOptIn(db, caller);
      const [claims, rewards] = await Promise.all([
        claimsOf(db, caller.tenant.id, caller.user.id),
        rewardsOf(db, caller.tenant.id),
      ]);
      return claims.flatMap((c) => {
        const reward = rewards.find((r) => r.id === c.reward_id);
        // A claim the order system rejected is not the member's any more (its notice says so).
        if (!reward || c.rejected_at !== null) return [];
        return [
          {
            rewardId: c.reward_id,
            shortText: loyaltyText(reward.name)!,
            timestamp: new Date(c.claimed_at).toISOString(),
            couponCode: c.code,
            targetURL: rewardKind(reward.reward_type) === 'shop-link' ? shopUrl(reward.target_url) : null,
            rewardType: reward.reward_type,
          },
        ];
      });
    },
  };
}

export type LoyaltyService = ReturnType<typeof createLoyaltyService>;
