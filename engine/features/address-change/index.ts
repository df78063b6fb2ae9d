import { ROUTES } from '../../domain/routeRefs';
import { can } from '../../domain/capabilities';
import { defineFeature } from '../types';

/**
 * Address change (account-flows.md §2 "Addresses", §4 "Address change timing", §5 "Address form",
 * §8), switched by `address-change`: the subscription's addresses (one block per business partner
 * with its roles, its edit button and the planned changes) and a partner's edit page, plus the
 * addresses button on the subscription page.
 */
export const addressChangeFeature = defineFeature({
  id: 'address-change',
  flags: ['address-change'],
  routes: [
    { ref: ROUTES.subscriptionAddresses, access: 'login', screen: () => import('./AddressesScreen') },
    {
      ref: ROUTES.subscriptionBusinessPartner,
      access: 'login',
      screen: () => import('./AddressChangeScreen'),
    },
  ],
  actions: [
    {
      // portal-core.md §6 "address change and opt-ins: not licence manager, not externally managed".
      id: 'addresses',
      allowed: (s, ctx) => can('addressChange', s, ctx),
      target: { kind: 'route', route: ROUTES.subscriptionAddresses },
      labelKey: 'address-change.action',
      hiddenBy: 'addresses',
      order: 30,
      group: 'manage',
    },
  ],
});
