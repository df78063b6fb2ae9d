import { can } from '../../domain/capabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The button upgrade adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
  {
    // §6 "upgrade: ordering party".
    id: 'upgrade',
    allowed: (s, ctx) => can('upgrade', s, ctx),
    target: { kind: 'route', route: ROUTES.subscriptionUpgrade },
    labelKey: 'upgrade.action',
    hiddenBy: 'upgrade',
    order: 60,
    group: 'keep',
  },
];
