import { ROUTES } from '../../domain/routeRefs';
import { defineFeature } from '../types';

/**
 * Upgrade (account-flows.md §2 "Renewal and upgrade screens", §4 "Offer acceptance", §5, §8),
 * switched by `upgrade`: the subscription's upgrade page and the /upgrade entry (a picker when
 * signed in, the order-number form otherwise), plus the upgrade button on the subscription page.
 */
export const upgradeFeature = defineFeature({
  id: 'upgrade',
  flags: ['upgrade'],
  routes: [
    { ref: ROUTES.subscriptionUpgrade, access: 'login', screen: () => import('./UpgradeScreen') },
    { ref: ROUTES.upgrade, access: 'anonymous', screen: () => import('./UpgradeEntryScreen') },
  ],
  // Its subscription-page button, in a module the subscription page loads (types.ts `actions`).
  actions: () => import('./actions'),
});
