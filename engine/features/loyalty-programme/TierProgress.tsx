import { useTranslation } from '../../core/translation';
import type { LoyaltyTier } from '../../../schemas/generated/loyalty';
import { nextTier, tierProgress } from '../../domain/loyalty';
import { localized } from '../../ui/localized';

/** The progress bar (§2: "progress steps follow each tier's runtimeToReach"): one step per tier. */
export function TierProgress({ tiers, runtime }: { tiers: readonly LoyaltyTier[]; runtime: number }) {
  const { t, i18n } = useTranslation();
  const { fraction, steps } = tierProgress(tiers, runtime);
  const next = nextTier(tiers, runtime);
  const percent = Math.round(fraction * 100);
  return (
    <div className="card loyalty-progress">
      <p className="loyalty-runtime">{t('loyalty-programme.progress.runtime', { count: runtime })}</p>
      <div
        className="loyalty-bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={t('loyalty-programme.progress.label')}
      >
        <div className="loyalty-bar-fill" style={{ width: `${percent}%` }} />
      </div>
      <ol className="loyalty-steps">
        {steps.map((step) => {
          const tier = tiers.find((candidate) => candidate.tierCode === step.tierCode)!;
          return (
            <li key={step.tierCode} className={step.reached ? 'reached' : undefined}>
              <img
                src={(step.reached ? tier.reachedIconUrl : tier.lockedIconUrl) ?? undefined}
                alt=""
                width={32}
                height={32}
              />
              <span>{localized(tier.name, i18n.language)}</span>
            </li>
          );
        })}
      </ol>
      <p className="loyalty-next">
        {next
          ? t('loyalty-programme.progress.next', {
              count: next.monthsToGo,
              tier: localized(next.tier.name, i18n.language),
            })
          : t('loyalty-programme.progress.top')}
      </p>
    </div>
  );
}
