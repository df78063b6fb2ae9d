import { useTranslation } from './translation';
import { usePortal } from './PortalContext';

/** The customer service phone of the tenant's contact settings, else its fallback phone. */
export function contactPhoneOf(contact: { phone?: string; fallbackPhone: string }): string {
  return contact.phone?.trim() || contact.fallbackPhone;
}

/**
 * portal-core.md §8 "Voucher codes exhausted: contact phone support": the number to call, as a
 * link a phone dials ("Phone: +49 …", "Telefon: …").
 */
export function ContactPhone() {
  const { config } = usePortal();
  const { t } = useTranslation();
  const phone = contactPhoneOf(config.tenant.contact);
  return (
    <p className="contact-phone">
      <a href={`tel:${phone.replace(/[^+\d]/g, '')}`}>{t('shell.fallbackPhone', { phone })}</a>
    </p>
  );
}
