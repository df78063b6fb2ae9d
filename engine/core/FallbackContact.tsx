import { useTranslation } from './translation';
import { usePortal } from './PortalContext';

/** The tenant's fallback e-mail and phone (portal-core.md §1, §8: feature disabled, contact unsupported). */
export function FallbackContact() {
  const { config } = usePortal();
  const { t } = useTranslation();
  const { fallbackEmail, fallbackPhone } = config.tenant.contact;
  return (
    <ul className="fallback-contact">
      <li>
        <a href={`mailto:${fallbackEmail}`}>{t('shell.fallbackEmail', { email: fallbackEmail })}</a>
      </li>
      <li>
        <a href={`tel:${fallbackPhone.replace(/[^+\d]/g, '')}`}>
          {t('shell.fallbackPhone', { phone: fallbackPhone })}
        </a>
      </li>
    </ul>
  );
}
