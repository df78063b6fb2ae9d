import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Subscription } from '../../../schemas/generated/subscription';
import { can, externalLinkUrl, type Capability, type CapabilityContext } from '../../domain/capabilities';
import { localized } from '../../ui/localized';
import { useScreenSettings } from '../orders/capabilityContext';
import { GiftCertificateDialog } from './GiftCertificateDialog';

type HiddenAction = NonNullable<NonNullable<ReturnType<typeof useScreenSettings>['buttons']>['hiddenActions']>[number];

/**
 * The action buttons of §2 "Subscription detail", each shown by its capability rule of §6 (and not
 * hidden by the tenant's buttons.hiddenActions). Screens not built yet show the feature notice.
 */
export function ActionButtons({ subscription: s, ctx }: { subscription: Subscription; ctx: CapabilityContext }) {
  const { t, i18n } = useTranslation();
  const settings = useScreenSettings();
  const [giftOpen, setGiftOpen] = useState(false);
  const hidden = new Set<string>(settings.buttons?.hiddenActions ?? []);
  const base = `/subscriptions/${encodeURIComponent(s.id)}`;
  const shown = (action: HiddenAction, ...capabilities: Capability[]) => !hidden.has(action) && capabilities.some((c) => can(c, s, ctx));
  const links: Array<{ key: string; to: string; label: string }> = [];
  if (shown('renewal', 'renewal')) links.push({ key: 'renewal', to: `${base}/renewal`, label: t('subscription.action.renewal') });
  if (shown('upgrade', 'upgrade')) links.push({ key: 'upgrade', to: `${base}/upgrade`, label: t('subscription.action.upgrade') });
  if (shown('phase-upgrade', 'phaseUpgrade')) links.push({ key: 'phase-upgrade', to: `${base}/upgrade?source=phase`, label: t('subscription.action.phaseUpgrade') });
  if (shown('holiday-service', 'holidayService')) links.push({ key: 'holiday', to: `${base}/holiday-service`, label: t('subscription.action.holidayService') });
  if (shown('complaint', 'issueComplaint')) links.push({ key: 'complaint', to: `${base}/complaint`, label: t('subscription.action.complaint') });
  if (shown('addresses', 'addressChange')) links.push({ key: 'addresses', to: `${base}/addresses`, label: t('subscription.action.addresses') });
  if (shown('payment-details', 'paymentMethodChange', 'billingFrequency'))
    links.push({ key: 'payment', to: `${base}/payment-details`, label: t('subscription.action.paymentDetails') });
  if (shown('opt-ins', 'optIns')) links.push({ key: 'opt-ins', to: `${base}/opt-ins`, label: t('subscription.action.optIns') });
  if (shown('licenses', 'multiUserLicenses')) links.push({ key: 'licenses', to: `${base}/licenses`, label: t('subscription.action.licenses') });
  if (shown('e-card', 'eCard')) links.push({ key: 'e-card', to: `${base}/e-card`, label: t('subscription.action.eCard') });
  if (shown('cancellation', 'cancellation')) links.push({ key: 'cancellation', to: `${base}/cancellation`, label: t('subscription.action.cancellation') });
  if (shown('contact', 'cancellationRevocation')) {
    const activity = settings.cancellation?.revocationContactActivity ?? '';
    links.push({
      key: 'revocation',
      to: `/contact?subscriptionId=${encodeURIComponent(s.id)}&activity=${encodeURIComponent(activity)}`,
      label: t('subscription.action.revokeCancellation'),
    });
  }
  if (shown('contact', 'contact')) links.push({ key: 'contact', to: `/contact?subscriptionId=${encodeURIComponent(s.id)}`, label: t('subscription.action.contact') });
  const external = shown('external-subscription-link', 'externalLink') ? externalLinkUrl(s, ctx) : null;
  const gift = shown('gift-certificate', 'giftCertificate');
  if (links.length === 0 && !external && !gift) return null;

  return (
    <section className="action-buttons" aria-labelledby="actions-title">
      <h2 id="actions-title">{t('subscription.actionsHeading')}</h2>
      <div className="button-row">
        {links.map((link) => (
          <Link key={link.key} className="button button-secondary" to={link.to}>
            {link.label}
          </Link>
        ))}
        {gift && (
          <button type="button" className="button button-secondary" onClick={() => setGiftOpen(true)}>
            {t('subscription.action.giftCertificate')}
          </button>
        )}
        {external && (
          <a className="button button-secondary" href={external} target="_blank" rel="noopener noreferrer">
            {localized(settings.externalSubscriptionLink?.label, i18n.language) || t('subscription.action.externalLink')}
          </a>
        )}
      </div>
      {giftOpen && <GiftCertificateDialog subscriptionId={s.id} onClose={() => setGiftOpen(false)} />}
    </section>
  );
}
