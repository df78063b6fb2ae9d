import { can } from '../../domain/capabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The button address-change adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
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
];
