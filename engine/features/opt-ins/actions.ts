import { can } from '../../domain/capabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The button opt-ins adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
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
];
