import { canDownloadGiftCertificate, canOpenExternalLink, externalLinkUrl } from '../../domain/capabilities';
import type { SubscriptionAction } from '../types';

/** The buttons subscription adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
  {
    id: 'gift-certificate',
    allowed: canDownloadGiftCertificate,
    target: { kind: 'dialog', dialog: () => import('./GiftCertificateDialog') },
    labelKey: 'subscription.action.giftCertificate',
    hiddenBy: 'gift-certificate',
    order: 140,
    group: 'manage',
  },
  {
    id: 'external-subscription-link',
    allowed: canOpenExternalLink,
    target: {
      kind: 'external',
      url: externalLinkUrl,
      label: (tenant) => tenant.externalSubscriptionLink?.label,
    },
    labelKey: 'subscription.action.externalLink',
    hiddenBy: 'external-subscription-link',
    order: 150,
    group: 'manage',
  },
];
