import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { useParams } from 'react-router';
import { Link } from '../../core/links';
import { ResourceView } from '../../account/ResourceView';
import { useResource } from '../../account/resource';
import { usePortal } from '../../core/PortalContext';
import { href, ROUTES } from '../../domain/routeRefs';
import { claimRefusal, COPIED_NOTE_ON_REWARD_PAGE_MS, rewardKind } from '../../domain/loyalty';
import { Alert } from '../../ui/Alert';
import { localized } from '../../ui/localized';
import { CodeBox } from './CodeBox';
import { LoyaltyLayout } from './LoyaltyLayout';
import { loyaltyApi } from './loyaltyApi';
import { CLAIM_OUTCOME_TEXT, claimOutcomeOf, type ClaimOutcome } from './loyaltyOutcomes';
import { goToShop, isShopUrl, shopLinkTarget } from './shopLink';
import { tierOf, useLoyalty } from './useLoyalty';
import { compareIso } from '../../domain/dates';

/**
 * /loyalty-programme/rewards/{id} (account-flows.md §2, §4 "Reward claim"): the reward's image and
 * text, why it cannot be claimed (not available, already used, not claimable), else the claim
 * button; the code shows here with the copy button (note for 2 s), a shop link sends on.
 */
export default function LoyaltyRewardScreen() {
  const { t, i18n } = useTranslation();
  const { rewardId = '' } = useParams();
  const { api } = usePortal();
  const { tiers, toggleFavorite, markUsed, busy } = useLoyalty();
  const [code, setCode] = useState<string | null>(null);
  const [failure, setFailure] = useState<ClaimOutcome | null>(null);
  const [sending, setSending] = useState(false);

  return (
    <LoyaltyLayout>
      <ResourceView
        resource={tiers}
        errorKey="loyalty-programme.loadError"
        emptyKey="loyalty-programme.reward.notFound"
        isEmpty={(data) => !data.tiers.some((tier) => tier.rewards.some((r) => r.id === rewardId))}
      >
        {(data) => {
          const reward = data.tiers.flatMap((tier) => tier.rewards).find((r) => r.id === rewardId)!;
          const tier = tierOf(data.tiers, reward);
          const refusal = claimRefusal(reward, tier, {
            optedIn: data.user.optedIn,
            runtime: data.user.runtime,
          });
          const kind = rewardKind(reward.rewardType);
          const name = localized(reward.name, i18n.language);

          async function claim() {
            setSending(true);
            setFailure(null);
            try {
              const answer = await loyaltyApi(api).claim(reward.tierCode, reward.id);
              markUsed(reward.id, answer.targetURL);
              // A blocked new tab leaves the used reward's shop link below to open by hand.
              if (answer.targetURL) goToShop(answer.targetURL);
              else if (answer.codeValue) setCode(answer.codeValue);
            } catch (error) {
              setFailure(claimOutcomeOf(error));
            } finally {
              setSending(false);
            }
          }

          return (
            <article className="card loyalty-detail" aria-labelledby="loyalty-reward-title">
              {reward.mainImageUrl && (
                <img className="loyalty-detail-image" src={reward.mainImageUrl} alt="" />
              )}
              <div className="loyalty-detail-body">
                <p className="loyalty-detail-tier">{localized(tier.name, i18n.language)}</p>
                <h2 id="loyalty-reward-title" data-page-section>
                  {name}
                </h2>
                <p>{localized(reward.description, i18n.language)}</p>
                {reward.consent && <p className="form-hint">{localized(reward.consent, i18n.language)}</p>}
                {code && <CodeBox code={code} noteMs={COPIED_NOTE_ON_REWARD_PAGE_MS} />}
                {!code && refusal && refusal !== 'not_opted_in' && (
                  <Alert variant={refusal === 'already_used' ? 'success' : 'info'}>
                    <p>{t(CLAIM_OUTCOME_TEXT[refusal])}</p>
                  </Alert>
                )}
                {!code && refusal === 'already_used' && <ClaimedCode rewardId={reward.id} />}
                {failure && (
                  <Alert variant="error">
                    <p>{t(CLAIM_OUTCOME_TEXT[failure])}</p>
                  </Alert>
                )}
                <div className="form-actions">
                  {!code && refusal === null && (
                    <button type="button" className="button" disabled={sending} onClick={() => void claim()}>
                      {t(
                        kind === 'shop-link'
                          ? 'loyalty-programme.reward.toShop'
                          : 'loyalty-programme.reward.claim',
                      )}
                    </button>
                  )}
                  {reward.used && reward.targetURL && isShopUrl(reward.targetURL) && (
                    <a
                      className="button button-secondary"
                      href={reward.targetURL}
                      target={shopLinkTarget()}
                      rel={shopLinkTarget() ? 'noopener noreferrer' : undefined}
                    >
                      {t('loyalty-programme.reward.toShop')}
                    </a>
                  )}
                  <button
                    type="button"
                    className="button button-secondary"
                    aria-pressed={reward.favorite}
                    disabled={busy === reward.id}
                    onClick={() => void toggleFavorite(reward)}
                  >
                    <span aria-hidden="true">{reward.favorite ? '★ ' : '☆ '}</span>
                    {t(
                      reward.favorite
                        ? 'loyalty-programme.reward.unfavorite'
                        : 'loyalty-programme.reward.favorite',
                    )}
                  </button>
                  <Link to={href(ROUTES.loyaltyRewards)}>{t('loyalty-programme.reward.back')}</Link>
                </div>
              </div>
            </article>
          );
        }}
      </ResourceView>
    </LoyaltyLayout>
  );
}

/**
 * The code a claimed reward gave, from the history (§2 "history: reward, date, code"): after a
 * reload the reward's page still shows it, as it did when claimed, not only the history does.
 */
function ClaimedCode({ rewardId }: { rewardId: string }) {
  const history = useResource('loyalty-history', (client) => loyaltyApi(client).history());
  if (history.state.status !== 'ready') return null;
  const claimed = history.state.data
    .filter((entry) => entry.rewardId === rewardId && entry.couponCode)
    .sort((a, b) => compareIso(b.timestamp, a.timestamp))[0];
  return claimed ? <CodeBox code={claimed.couponCode!} noteMs={COPIED_NOTE_ON_REWARD_PAGE_MS} /> : null;
}
