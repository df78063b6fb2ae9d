import { ROUTES } from '../../domain/routeRefs';
import { can } from '../../domain/capabilities';
import { defineFeature } from '../types';

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
      screen: () => import('./PaymentDetailsScreen'),
    },
  ],
  actions: [
    {
      // portal-core.md §6 "payment method change and billing frequency: active, ordering party, not externally managed".
      id: 'payment-details',
      allowed: (s, ctx) => can('paymentMethodChange', s, ctx),
      target: { kind: 'route', route: ROUTES.subscriptionPaymentDetails },
      labelKey: 'payment-method-change.action',
      hiddenBy: 'payment-details',
      order: 50,
      group: 'manage',
    },
  ],
});
