import { canCancel } from '../../domain/capabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The button cancellation adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
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
];
