import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredActions } from '../types';

/**
 * /subscriptions/{id} (portal-core.md §2 "Subscription detail"); always on, no menu entry. Its own
 * buttons are the gift-certificate dialog and the tenant's external link; the other buttons of §2
 * come from the features of the account flows, each declaring its action with its route.
 */
export const subscriptionFeature = defineFeature({
  id: 'subscription',
  routes: [{ ref: ROUTES.subscription, access: 'login', screen: () => import('./SubscriptionScreen') }],
  actions: deferredActions('subscription'),
});
