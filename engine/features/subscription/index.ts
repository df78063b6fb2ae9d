import { ROUTES } from '../../domain/routeRefs';
import { canDownloadGiftCertificate, canOpenExternalLink, externalLinkUrl } from '../../domain/capabilities';
import { defineFeature } from '../types';

/**
 * /subscriptions/{id} (portal-core.md §2 "Subscription detail"); always on, no menu entry. Its own
 * buttons are the gift-certificate dialog and the tenant's external link; the other buttons of §2
 * come from the features of the account flows, each declaring its action with its route.
 */
export const subscriptionFeature = defineFeature({
  id: 'subscription',
  routes: [{ ref: ROUTES.subscription, access: 'login', screen: () => import('./SubscriptionScreen') }],
  actions: [
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
  ],
});
