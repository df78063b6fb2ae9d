import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen, deferredActions } from '../types';

/**
 * Renewal (account-flows.md §2 "Renewal and upgrade screens", "Bulk renewal", §4 "Offer
 * acceptance", §5, §8), switched by `renewal`: the subscription's renewal page, the /renewal entry
 * (a picker when signed in, the order-number form otherwise) and /bulk-renewal (only when the
 * tenant's renewal.bulkRenewal is on). It adds the renewal button to the subscription page, first
 * in §2's list.
 */
export const renewalFeature = defineFeature({
  id: 'renewal',
  flags: ['renewal'],
  routes: [
    { ref: ROUTES.subscriptionRenewal, access: 'login', screen: deferredScreen('renewal', 'RenewalScreen') },
    { ref: ROUTES.renewal, access: 'anonymous', screen: deferredScreen('renewal', 'RenewalEntryScreen') },
    { ref: ROUTES.bulkRenewal, access: 'anonymous', screen: deferredScreen('renewal', 'BulkRenewalScreen') },
  ],
  actions: deferredActions('renewal'),
});
