import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/**
 * /link-subscription (portal-core.md §2 "Link subscription", §5), switched by manual-registration,
 * and /link-subscription/confirm, where the link mailed to a subscription's address on record
 * confirms it (docs/architecture.md "Sign-in safety").
 */
export const linkSubscriptionFeature = defineFeature({
  id: 'link-subscription',
  flags: ['manual-registration'],
  routes: [
    {
      ref: ROUTES.linkSubscription,
      access: 'account',
      screen: deferredScreen('link-subscription', 'LinkSubscriptionScreen'),
    },
    {
      ref: ROUTES.linkSubscriptionConfirm,
      access: 'anonymous',
      screen: deferredScreen('link-subscription', 'LinkConfirmScreen'),
    },
  ],
  menu: { route: ROUTES.linkSubscription, labelKey: 'link-subscription.menuTitle', order: 30 },
});
