import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen, deferredActions } from '../types';

/**
 * Opt-ins (account-flows.md §2 "Opt-ins", §4 "Opt-ins", §8), switched by `opt-ins`: one checkbox
 * per opt-in of the user's business partner on the subscription, and a save button; plus its
 * button on the subscription page (after the contact buttons, portal-core.md §2); and the page the
 * double opt-in mail links to, in the tenant's look, where the mailbox confirms.
 */
export const optInsFeature = defineFeature({
  id: 'opt-ins',
  flags: ['opt-ins'],
  routes: [
    { ref: ROUTES.subscriptionOptIns, access: 'login', screen: deferredScreen('opt-ins', 'OptInsScreen') },
    // The mailbox the information will go to confirms: no session needed.
    {
      ref: ROUTES.optInConfirm,
      access: 'anonymous',
      screen: deferredScreen('opt-ins', 'OptInConfirmScreen'),
    },
  ],
  actions: deferredActions('opt-ins'),
});
