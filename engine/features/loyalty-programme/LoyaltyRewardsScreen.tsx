import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import type { LoyaltyTier } from '../../../schemas/generated/loyalty';
import { ResourceView } from '../../account/ResourceView';
import { visibleRewards } from '../../domain/loyalty';
import { Badge } from '../../ui/Badge';
import { localized } from '../../ui/localized';
import { LoyaltyLayout } from './LoyaltyLayout';
import { RewardCard } from './RewardCard';
import { TierProgress } from './TierProgress';
import { useLoyalty } from './useLoyalty';

/** /loyalty-programme/rewards (account-flows.md §2): the progress and each tier with its rewards, 8 until "more". */
export default function LoyaltyRewardsScreen() {
  const { tiers, toggleFavorite, markUsed, busy } = useLoyalty();
  return (
    <LoyaltyLayout>
      <ResourceView resource={tiers} errorKey="loyalty-programme.loadError">
        {(data) => (
          <>
            <TierProgress tiers={data.tiers} runtime={data.user.runtime} />
            {data.tiers.map((tier) => (
              <TierSection
                key={tier.tierCode}
                tier={tier}
                runtime={data.user.runtime}
                onFavorite={toggleFavorite}
                busy={busy}
                onClaimed={markUsed}
              />
            ))}
          </>
        )}
      </ResourceView>
    </LoyaltyLayout>
  );
}

function TierSection({
  tier,
  runtime,
  onFavorite,
  busy,
  onClaimed,
}: {
  tier: LoyaltyTier;
  runtime: number;
  onFavorite: Parameters<typeof RewardCard>[0]['onFavorite'];
  busy: string | null;
  onClaimed: (rewardId: string, targetURL: string | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const { shown, hasMore } = visibleRewards(tier.rewards, expanded);
  const titleId = `loyalty-tier-${tier.tierCode}`;
  return (
    <section className="loyalty-tier" aria-labelledby={titleId} data-testid={`tier-${tier.tierCode}`}>
      <header className="loyalty-tier-head">
        <img
          src={(tier.reached ? tier.reachedIconUrl : tier.lockedIconUrl) ?? undefined}
          alt=""
          width={48}
          height={48}
        />
        <div>
          <h2 id={titleId}>{localized(tier.name, i18n.language)}</h2>
          <p>{localized(tier.description, i18n.language)}</p>
        </div>
        {tier.reached ? (
          <Badge tone="success">{t('loyalty-programme.tier.reached')}</Badge>
        ) : (
          <Badge tone="neutral">{t('loyalty-programme.tier.from', { count: tier.runtimeToReach })}</Badge>
        )}
      </header>
      <ul className="loyalty-grid">
        {shown.map((reward) => (
          <RewardCard
            key={reward.id}
            reward={reward}
            tier={tier}
            runtime={runtime}
            onFavorite={onFavorite}
            favoriteBusy={busy === reward.id}
            onClaimed={onClaimed}
          />
        ))}
      </ul>
      {hasMore && (
        <button
          type="button"
          className="button button-secondary loyalty-more"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {t(expanded ? 'loyalty-programme.rewards.less' : 'loyalty-programme.rewards.more', {
            count: tier.rewards.length,
          })}
        </button>
      )}
    </section>
  );
}
