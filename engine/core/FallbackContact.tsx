import { useTranslation } from './translation';
import { usePortal } from './PortalContext';

/** The tenant's fallback e-mail and phone as two links (a `mailto:` and a `tel:`). */
function useFallbackLinks() {
  const { config } = usePortal();
  const { t } = useTranslation();
  const { fallbackEmail, fallbackPhone } = config.tenant.contact;
  return [
    <a key="email" href={`mailto:${fallbackEmail}`}>
      {t('shell.fallbackEmail', { email: fallbackEmail })}
    </a>,
    <a key="phone" href={`tel:${fallbackPhone.replace(/[^+\d]/g, '')}`}>
      {t('shell.fallbackPhone', { phone: fallbackPhone })}
    </a>,
  ];
}

/** The tenant's fallback e-mail and phone (portal-core.md §1, §8: feature disabled, contact unsupported). */
export function FallbackContact() {
  return (
    <ul className="fallback-contact">
      {useFallbackLinks().map((link) => (
        <li key={link.key}>{link}</li>
      ))}
    </ul>
  );
}

/** The same within a sentence (a field's hint): "E-mail: …, Phone: …". */
export function InlineFallbackContact() {
  const [email, phone] = useFallbackLinks();
  return (
    <span className="fallback-contact-inline">
      {email}, {phone}
    </span>
  );
}
