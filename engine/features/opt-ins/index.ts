import { ROUTES } from '../../domain/routeRefs';
import { can } from '../../domain/capabilities';
import { defineFeature } from '../types';

/**
 * Opt-ins (account-flows.md §2 "Opt-ins", §4 "Opt-ins", §8), switched by `opt-ins`: one checkbox
 * per opt-in of the user's business partner on the subscription, and a save button; plus its
 * button on the subscription page (after the contact buttons, portal-core.md §2).
 */
export const optInsFeature = defineFeature({
  id: 'opt-ins',
  flags: ['opt-ins'],
  routes: [{ ref: ROUTES.subscriptionOptIns, access: 'login', screen: () => import('./OptInsScreen') }],
  actions: [
    {
      // portal-core.md §6 "address change and opt-ins: not licence manager, not externally managed".
      id: 'opt-ins',
      allowed: (s, ctx) => can('optIns', s, ctx),
      target: { kind: 'route', route: ROUTES.subscriptionOptIns },
      labelKey: 'opt-ins.action',
      hiddenBy: 'opt-ins',
      order: 135,
      group: 'manage',
    },
  ],
});
