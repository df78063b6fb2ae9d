import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen, deferredActions } from '../types';

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
    {
      ref: ROUTES.subscriptionCancellation,
      access: 'login',
      screen: deferredScreen('cancellation', 'CancellationScreen'),
    },
    {
      ref: ROUTES.cancellation,
      access: 'anonymous',
      screen: deferredScreen('cancellation', 'CancellationEntryScreen'),
    },
  ],
  actions: deferredActions('cancellation'),
});
