import { can } from '../../domain/capabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The button issue-complaint adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
  {
    // portal-core.md §6 "issue complaint: active, not externally managed, physical or combi, not time-based, not licence manager".
    id: 'complaint',
    allowed: (s, ctx) => can('issueComplaint', s, ctx),
    target: { kind: 'route', route: ROUTES.subscriptionComplaint },
    labelKey: 'issue-complaint.action',
    hiddenBy: 'complaint',
    order: 20,
    group: 'help',
  },
];
