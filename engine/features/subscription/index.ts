import { defineFeature } from '../types';

/**
 * Routes of the action screens the subscription page links to that are not built yet (account-flows
 * document): until their features exist, each shows the feature-disabled notice with the fallback
 * contact (portal-core.md §1) rather than "page not found". Remove a path here when its feature
 * registers it.
 */
const ACTION_SCREENS_NOT_YET_BUILT = [
  'renewal',
  'complaint',
  'addresses',
  'business-partners/:bpNumber',
  'holiday-service',
  'payment-details',
  'upgrade',
  'cancellation',
  'opt-ins',
  'licenses',
  'e-card',
];

/** /subscriptions/{id} (portal-core.md §2 "Subscription detail"); always on, no menu entry. */
export const subscriptionFeature = defineFeature({
  id: 'subscription',
  routes: [
    { path: 'subscriptions/:id', access: 'login', screen: () => import('./SubscriptionScreen') },
    ...ACTION_SCREENS_NOT_YET_BUILT.map((screen) => ({
      path: `subscriptions/:id/${screen}`,
      access: 'login' as const,
      screen: () => import('./NotYetAvailable'),
    })),
  ],
});
