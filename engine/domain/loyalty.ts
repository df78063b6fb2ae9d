/**
 * Rules of the loyalty programme (account-flows.md §2 "Loyalty programme", §3 loyalty user, tier,
 * reward, §4 "Reward claim"), shared by the screens and the server (CONVENTIONS.md rule 3): the
 * server refuses a claim by the same `claimRefusal` the reward page shows its notice by.
 */

/** §2: rewards shown per tier before "more". */
export const REWARDS_PER_TIER = 8;
/** §4: how long the "copied" note shows (ms), in the code dialog and on the reward page. */
export const COPIED_NOTE_MS = 1500;
export const COPIED_NOTE_ON_REWARD_PAGE_MS = 2000;

/** §3 rewardType: G = a code, L or 3 = a link to the shop; others are shown, not claimed online. */
export type RewardKind = 'code' | 'shop-link' | 'other';
export function rewardKind(rewardType: string): RewardKind {
  if (rewardType === 'G') return 'code';
  if (rewardType === 'L' || rewardType === '3') return 'shop-link';
  return 'other';
}

export interface TierLike {
  tierCode: string;
  runtimeToReach: number;
}

export interface RewardLike {
  claimable: boolean;
  used: boolean;
  rewardType: string;
}

/** §4: "A tier is reached when user runtime is at least its runtimeToReach". */
export const isTierReached = (tier: TierLike, runtimeMonths: number) => runtimeMonths >= tier.runtimeToReach;

/** Why a claim is refused, or null when it may go ahead (§4, §8 loyalty errors). Order: tier, used, claimable. */
export type ClaimRefusal = 'not_opted_in' | 'not_available' | 'already_used' | 'not_claimable';
export function claimRefusal(
  reward: RewardLike,
  tier: TierLike,
  member: { optedIn: boolean; runtime: number },
): ClaimRefusal | null {
  if (!member.optedIn) return 'not_opted_in';
  if (!isTierReached(tier, member.runtime)) return 'not_available';
  if (reward.used) return 'already_used';
  if (!reward.claimable || rewardKind(reward.rewardType) === 'other') return 'not_claimable';
  return null;
}

/**
 * The progress bar (§2: "progress steps follow each tier's runtimeToReach"): one equal step per
 * tier after the first, filled in proportion within the step the member is in.
 * Answers a fraction 0..1 and the steps' positions.
 */
export function tierProgress(
  tiers: readonly TierLike[],
  runtimeMonths: number,
): { fraction: number; steps: Array<{ tierCode: string; at: number; reached: boolean }> } {
  const sorted = [...tiers].sort((a, b) => a.runtimeToReach - b.runtimeToReach);
  if (sorted.length === 0) return { fraction: 0, steps: [] };
  const last = sorted.length - 1;
  const steps = sorted.map((tier, index) => ({
    tierCode: tier.tierCode,
    at: last === 0 ? 1 : index / last,
    reached: isTierReached(tier, runtimeMonths),
  }));
  if (last === 0) return { fraction: isTierReached(sorted[0], runtimeMonths) ? 1 : 0, steps };
  let fraction = 0;
  for (let i = 0; i < last; i++) {
    const from = sorted[i].runtimeToReach;
    const to = sorted[i + 1].runtimeToReach;
    if (runtimeMonths >= to) fraction = (i + 1) / last;
    else if (runtimeMonths >= from)
      fraction = (i + (to > from ? (runtimeMonths - from) / (to - from) : 0)) / last;
  }
  return { fraction: Math.min(1, Math.max(0, fraction)), steps };
}

/** The tier after the reached ones and the months still to go (null when all are reached). */
export function nextTier<T extends TierLike>(
  tiers: readonly T[],
  runtimeMonths: number,
): { tier: T; monthsToGo: number } | null {
  const next = [...tiers]
    .sort((a, b) => a.runtimeToReach - b.runtimeToReach)
    .find((tier) => !isTierReached(tier, runtimeMonths));
  return next ? { tier: next, monthsToGo: next.runtimeToReach - runtimeMonths } : null;
}

/** §2: 8 rewards per tier, all after "more". */
export function visibleRewards<R>(
  rewards: readonly R[],
  expanded: boolean,
): { shown: readonly R[]; hasMore: boolean } {
  return {
    shown: expanded ? rewards : rewards.slice(0, REWARDS_PER_TIER),
    hasMore: rewards.length > REWARDS_PER_TIER,
  };
}

/**
 * The member's runtime (§3 "Loyalty user: runtime"), as this project defines it: whole months from
 * the earliest start (valid from, else order date) of any subscription the account speaks for, to
 * today; 0 without subscriptions. Whole months: the 15th to the 14th of the next month is 0.
 */
export function runtimeMonths(starts: ReadonlyArray<string | null | undefined>, today: string): number {
  const first = starts.filter((day): day is string => Boolean(day)).sort()[0];
  if (!first || first > today) return 0;
  const [y1, m1, d1] = first.split('-').map(Number);
  const [y2, m2, d2] = today.split('-').map(Number);
  return Math.max(0, (y2 - y1) * 12 + (m2 - m1) - (d2 < d1 ? 1 : 0));
}

/** The loyalty feature is on (tenant flag). */
// The menu rule lives apart (loyaltyMenu.ts): the registry, loaded by every screen, needs only it.
export { isLoyaltyOn, showLoyaltyInMenu } from './loyaltyMenu';
