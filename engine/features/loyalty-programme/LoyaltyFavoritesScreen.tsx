import { useTranslation } from '../../core/translation';
import { ResourceView } from '../../account/ResourceView';
import { LoyaltyLayout } from './LoyaltyLayout';
import { RewardCard } from './RewardCard';
import { tierOf, useLoyalty } from './useLoyalty';

/** /loyalty-programme/favorites (account-flows.md §2): the rewards marked as favourites. */
export default function LoyaltyFavoritesScreen() {
  const { t } = useTranslation();
  const { tiers, toggleFavorite, markUsed, busy } = useLoyalty();
  return (
    <LoyaltyLayout>
      <h2 data-page-section>{t('loyalty-programme.nav.favorites')}</h2>
      <ResourceView
        resource={tiers}
        errorKey="loyalty-programme.loadError"
        emptyKey="loyalty-programme.favorites.empty"
        isEmpty={(data) => !data.tiers.some((tier) => tier.rewards.some((r) => r.favorite))}
      >
        {(data) => (
          <ul className="loyalty-grid">
            {data.tiers
              .flatMap((tier) => tier.rewards)
              .filter((reward) => reward.favorite)
              .map((reward) => (
                <RewardCard
                  key={reward.id}
                  reward={reward}
                  tier={tierOf(data.tiers, reward)}
                  runtime={data.user.runtime}
                  onFavorite={toggleFavorite}
                  favoriteBusy={busy === reward.id}
                  onClaimed={markUsed}
                />
              ))}
          </ul>
        )}
      </ResourceView>
    </LoyaltyLayout>
  );
}
