import { ROUTES } from '../../domain/routeRefs';
import { canCancel } from '../../domain/capabilities';
import { defineFeature } from '../types';

/**
 * Cancellation (account-flows.md §2 "Cancellation screen", §4 "Cancellation", "Offer acceptance",
 * §5, §8), switched by `cancellation`: the subscription's cancellation page (reason, date, retention
 * offers) and the /cancellation entry (a picker when signed in, the e-mail, order number and zip
 * code check otherwise), plus the cancellation button on the subscription page.
 */
export const cancellationFeature = defineFeature({
  id: 'cancellation',
  flags: ['cancellation'],
  routes: [
    { ref: ROUTES.subscriptionCancellation, access: 'login', screen: () => import('./CancellationScreen') },
    { ref: ROUTES.cancellation, access: 'anonymous', screen: () => import('./CancellationEntryScreen') },
  ],
  actions: [
    {
      // §6 "cancellation: when cancelable, or when externally managed (WBZA) where it is then refused with a notice".
      id: 'cancellation',
      allowed: canCancel,
      target: { kind: 'route', route: ROUTES.subscriptionCancellation },
      labelKey: 'cancellation.action',
      hiddenBy: 'cancellation',
      order: 70,
      group: 'end',
    },
  ],
});
