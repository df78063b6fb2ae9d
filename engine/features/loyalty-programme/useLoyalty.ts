import { useState } from 'react';
import type { LoyaltyReward, LoyaltyTier, LoyaltyTiersAnswer } from '../../../schemas/generated/loyalty';
import { useResource } from '../../account/resource';
import { usePortal } from '../../core/PortalContext';
import { loyaltyApi } from './loyaltyApi';

/** The tiers answer as a resource, with favourites switched in place (§8: favourite errors are only logged). */
export function useLoyalty() {
  const { api } = usePortal();
  const tiers = useResource<LoyaltyTiersAnswer>('loyalty-tiers', (client) => loyaltyApi(client).tiers());
  const [busy, setBusy] = useState<string | null>(null);

  async function toggleFavorite(reward: LoyaltyReward) {
    if (tiers.state.status !== 'ready' || busy) return;
    setBusy(reward.id);
    try {
      const { favorite } = await loyaltyApi(api).favorite(reward.id, !reward.favorite);
      const data = tiers.state.status === 'ready' ? tiers.state.data : undefined;
      if (!data) return;
      tiers.replace({
        user: {
          ...data.user,
          favorites: favorite
            ? [...data.user.favorites.filter((id) => id !== reward.id), reward.id]
            : data.user.favorites.filter((id) => id !== reward.id),
        },
        tiers: data.tiers.map((tier) => ({
          ...tier,
          rewards: tier.rewards.map((r) => (r.id === reward.id ? { ...r, favorite } : r)),
        })),
      });
    } catch {
      console.error('loyalty favourite failed');
    } finally {
      setBusy(null);
    }
  }

  /** After a claim: the reward is used (and its shop link known). */
  function markUsed(rewardId: string, targetURL: string | null) {
    const data = tiers.state.status === 'ready' ? tiers.state.data : undefined;
    if (!data) return;
    tiers.replace({
      ...data,
      tiers: data.tiers.map((tier) => ({
        ...tier,
        rewards: tier.rewards.map((r) =>
          r.id === rewardId ? { ...r, used: true, targetURL: targetURL ?? r.targetURL } : r,
        ),
      })),
    });
  }

  return { tiers, toggleFavorite, markUsed, busy };
}

export const tierOf = (tiers: readonly LoyaltyTier[], reward: LoyaltyReward) =>
  tiers.find((tier) => tier.tierCode === reward.tierCode)!;
