import { can } from '../../domain/capabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The button payment-method-change adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
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
];
