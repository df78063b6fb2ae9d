import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen, deferredActions } from '../types';

/**
 * Payment method change (account-flows.md §2 "Payment details", §4 "Payment method change", §5,
 * §8), switched by `payment-method-change`: the subscription's payment details page (the current
 * method, and a change in the directions the tenant allows — SEPA and direct debit by form, card
 * and PayPal in the payment popup), plus its button on the subscription page.
 */
export const paymentMethodChangeFeature = defineFeature({
  id: 'payment-method-change',
  flags: ['payment-method-change'],
  routes: [
    {
      ref: ROUTES.subscriptionPaymentDetails,
      access: 'login',
      screen: deferredScreen('payment-method-change', 'PaymentDetailsScreen'),
    },
  ],
  actions: deferredActions('payment-method-change'),
});
