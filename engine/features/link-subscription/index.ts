import { ROUTES } from '../../domain/routeRefs';
import { defineFeature } from '../types';

/** /link-subscription (portal-core.md §2 "Link subscription", §5), switched by manual-registration. */
export const linkSubscriptionFeature = defineFeature({
  id: 'link-subscription',
  flags: ['manual-registration'],
  routes: [
    { ref: ROUTES.linkSubscription, access: 'account', screen: () => import('./LinkSubscriptionScreen') },
  ],
  menu: { route: ROUTES.linkSubscription, labelKey: 'link-subscription.menuTitle', order: 30 },
});
