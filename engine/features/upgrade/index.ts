import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen, deferredActions } from '../types';

/**
 * Upgrade (account-flows.md §2 "Renewal and upgrade screens", §4 "Offer acceptance", §5, §8),
 * switched by `upgrade`: the subscription's upgrade page and the /upgrade entry (a picker when
 * signed in, the order-number form otherwise), plus the upgrade button on the subscription page.
 */
export const upgradeFeature = defineFeature({
  id: 'upgrade',
  flags: ['upgrade'],
  routes: [
    { ref: ROUTES.subscriptionUpgrade, access: 'login', screen: deferredScreen('upgrade', 'UpgradeScreen') },
    { ref: ROUTES.upgrade, access: 'anonymous', screen: deferredScreen('upgrade', 'UpgradeEntryScreen') },
  ],
  actions: deferredActions('upgrade'),
});
