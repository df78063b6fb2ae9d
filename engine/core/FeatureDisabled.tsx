import { useTranslation } from './translation';
import { FallbackContact } from './FallbackContact';

/** A disabled feature's route: notice with the tenant's fallback e-mail and phone (portal-core.md §1, §8). */
export function FeatureDisabled() {
  const { t } = useTranslation();
  return (
    <section className="notice-page" aria-labelledby="feature-disabled-title">
      <h1 id="feature-disabled-title">{t('shell.featureDisabledTitle')}</h1>
      <p>{t('shell.featureDisabledText')}</p>
      <FallbackContact />
    </section>
  );
}
