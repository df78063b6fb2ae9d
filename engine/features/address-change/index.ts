import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen, deferredActions } from '../types';

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
    {
      ref: ROUTES.subscriptionAddresses,
      access: 'login',
      screen: deferredScreen('address-change', 'AddressesScreen'),
    },
    {
      ref: ROUTES.subscriptionBusinessPartner,
      access: 'login',
      screen: deferredScreen('address-change', 'AddressChangeScreen'),
    },
  ],
  actions: deferredActions('address-change'),
});
