/** Payment method change (account-flows.md §2); its service is shared (SharedServices.paymentMethods), as payments settle through it. */
import type { FeatureManifest } from '../featureManifest';
import { paymentMethodChangeRoutes } from './paymentMethodChangeRoutes';

export const paymentMethodChangeManifest: FeatureManifest = {
  id: 'payment-method-change',
  routers: (deps, { paymentMethods }) => [
    { router: paymentMethodChangeRoutes({ auth: deps.auth, paymentMethods }) },
  ],
  events: ['payment_method.changed', 'payment.settled'],
};
