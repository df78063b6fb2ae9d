import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { Link } from '../../core/links';
import type { LoyaltyReward, LoyaltyTier } from '../../../schemas/generated/loyalty';
import { usePortal } from '../../core/PortalContext';
import { href, ROUTES } from '../../domain/routeRefs';
import { claimRefusal, COPIED_NOTE_MS, rewardKind } from '../../domain/loyalty';
import { Badge } from '../../ui/Badge';
import { Dialog } from '../../ui/Dialog';
import { localized } from '../../ui/localized';
import { CodeBox } from './CodeBox';
import { loyaltyApi } from './loyaltyApi';
import { CLAIM_OUTCOME_TEXT, claimOutcomeOf, type ClaimOutcome } from './loyaltyOutcomes';
import { goToShop, isShopUrl } from './shopLink';

/**
 * One reward in a tier's grid: its icon, name (to its page), state, favourite switch and — when the
 * rule of engine/domain/loyalty.ts allows it — the claim button, whose code shows in a dialog with
 * the copy button (note for 1.5 s) or which sends on to the shop (§4 "Reward claim").
 */
export function RewardCard({
  reward,
  tier,
  runtime,
  onFavorite,
  favoriteBusy,
  onClaimed,
}: {
  reward: LoyaltyReward;
  tier: LoyaltyTier;
  runtime: number;
  onFavorite: (reward: LoyaltyReward) => void;
  favoriteBusy: boolean;
  onClaimed: (rewardId: string, targetURL: string | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const [code, setCode] = useState<string | null>(null);
  // A shop the browser did not let the embedded portal open in a new tab: offered as a link.
  const [blockedShop, setBlockedShop] = useState<string | null>(null);
  const [failure, setFailure] = useState<ClaimOutcome | null>(null);
  const [sending, setSending] = useState(false);
  const name = localized(reward.name, i18n.language);
  const refusal = claimRefusal(reward, tier, { optedIn: true, runtime });
  const kind = rewardKind(reward.rewardType);

  async function claim() {
    setSending(true);
    try {
      const answer = await loyaltyApi(api).claim(reward.tierCode, reward.id);
      onClaimed(reward.id, answer.targetURL);
      if (answer.targetURL) {
        if (!goToShop(answer.targetURL) && isShopUrl(answer.targetURL)) setBlockedShop(answer.targetURL);
      } else if (answer.codeValue) setCode(answer.codeValue);
    } catch (error) {
      setFailure(claimOutcomeOf(error));
    } finally {
      setSending(false);
    }
  }

  return (
    <li className={`card loyalty-reward${refusal === 'not_available' ? ' loyalty-reward-locked' : ''}`}>
      {reward.iconUrl && (
        <img className="loyalty-reward-icon" src={reward.iconUrl} alt="" width={56} height={56} />
      )}
      <h3 className="loyalty-reward-name">
        <Link to={href(ROUTES.loyaltyReward, { rewardId: reward.id })}>{name}</Link>
      </h3>
      <div className="loyalty-reward-state">
        {reward.used && <Badge tone="success">{t('loyalty-programme.reward.used')}</Badge>}
        {refusal === 'not_available' && <Badge tone="neutral">{t('loyalty-programme.reward.locked')}</Badge>}
        {/* §4 "Reward claim": an unclaimable reward says so where its claim button would be. */}
        {refusal === 'not_claimable' && (
          <Badge tone="neutral">{t('loyalty-programme.reward.notClaimable')}</Badge>
        )}
      </div>
      <div className="loyalty-reward-actions">
        {refusal === null && (
          <button
            type="button"
            className="button"
            disabled={sending}
            onClick={() => void claim()}
            aria-label={`${t(kind === 'shop-link' ? 'loyalty-programme.reward.toShop' : 'loyalty-programme.reward.claim')}: ${name}`}
          >
            {t(kind === 'shop-link' ? 'loyalty-programme.reward.toShop' : 'loyalty-programme.reward.claim')}
          </button>
        )}
        <button
          type="button"
          className="button button-secondary loyalty-favorite"
          aria-pressed={reward.favorite}
          // Not `disabled` while it is saved: a disabled button loses the keyboard's focus, and a
          // second Enter would do nothing; a press while busy is ignored instead.
          aria-disabled={favoriteBusy}
          onClick={() => !favoriteBusy && onFavorite(reward)}
          aria-label={`${t(reward.favorite ? 'loyalty-programme.reward.unfavorite' : 'loyalty-programme.reward.favorite')}: ${name}`}
        >
          <span aria-hidden="true">{reward.favorite ? '★' : '☆'}</span>
        </button>
      </div>
      {code && (
        <Dialog
          title={t('loyalty-programme.claim.title')}
          variant="success"
          onClose={() => setCode(null)}
          actions={
            <button type="button" className="button" onClick={() => setCode(null)}>
              {t('shell.close')}
            </button>
          }
        >
          <p>{name}</p>
          <CodeBox code={code} noteMs={COPIED_NOTE_MS} />
        </Dialog>
      )}
      {blockedShop && (
        <Dialog
          title={name}
          variant="success"
          onClose={() => setBlockedShop(null)}
          actions={
            <>
              <a
                className="button"
                href={blockedShop}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => setBlockedShop(null)}
              >
                {t('loyalty-programme.reward.toShop')}
              </a>
              <button type="button" className="button button-secondary" onClick={() => setBlockedShop(null)}>
                {t('shell.close')}
              </button>
            </>
          }
        >
          <p>{t('loyalty-programme.claim.shopReady')}</p>
        </Dialog>
      )}
      {failure && (
        <Dialog
          title={t('loyalty-programme.error.title')}
          variant="error"
          onClose={() => setFailure(null)}
          actions={
            <button type="button" className="button" onClick={() => setFailure(null)}>
              {t('shell.close')}
            </button>
          }
        >
          <p>{t(CLAIM_OUTCOME_TEXT[failure])}</p>
        </Dialog>
      )}
    </li>
  );
}
