import { offersRenewal } from '../../domain/cardCapabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The button renewal adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
  {
    // §6 "renewal: renewable, ordering party, and no auto-renewal unless forced"; not while a
    // renewal the subscriber accepted runs.
    id: 'renewal',
    allowed: offersRenewal,
    target: { kind: 'route', route: ROUTES.subscriptionRenewal },
    labelKey: 'renewal.action',
    hiddenBy: 'renewal',
    order: 10,
    group: 'keep',
  },
];
