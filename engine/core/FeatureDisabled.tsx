import { useTranslation } from 'react-i18next';
import { usePortal } from './PortalContext';

/** A disabled feature's route: notice with the tenant's fallback e-mail and phone (portal-core.md §1, §8). */
export function FeatureDisabled() {
  const { config } = usePortal();
  const { t } = useTranslation();
  const { fallbackEmail, fallbackPhone } = config.tenant.contact;
  return (
    <section className="notice-page" aria-labelledby="feature-disabled-title">
      <h1 id="feature-disabled-title">{t('shell.featureDisabledTitle')}</h1>
      <p>{t('shell.featureDisabledText')}</p>
      <ul className="fallback-contact">
        <li>
          <a href={`mailto:${fallbackEmail}`}>{t('shell.fallbackEmail', { email: fallbackEmail })}</a>
        </li>
        <li>
          <a href={`tel:${fallbackPhone.replace(/[^+\d]/g, '')}`}>{t('shell.fallbackPhone', { phone: fallbackPhone })}</a>
        </li>
      </ul>
    </section>
  );
}
