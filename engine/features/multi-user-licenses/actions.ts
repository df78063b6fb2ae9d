import { can } from '../../domain/capabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The button multi-user-licenses adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
  {
    // portal-core.md §6 "multi-user licences: multi-licence and (licence manager or ordering party)".
    id: 'licenses',
    allowed: (s, ctx) => can('multiUserLicenses', s, ctx),
    target: { kind: 'route', route: ROUTES.subscriptionLicenses },
    labelKey: 'multi-user-licenses.action',
    hiddenBy: 'licenses',
    order: 137,
    group: 'manage',
  },
];
