import { can } from '../../domain/capabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The button holiday-service adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
  {
    // portal-core.md §6 "holiday service: not externally managed, not licence manager, and (active
    // and not time-based, or suspended with an end date)"; the capability's flags are the types'
    // flags, so it also asks that at least one type is on for the publication.
    id: 'holiday-service',
    allowed: (s, ctx) => can('holidayService', s, ctx),
    target: { kind: 'route', route: ROUTES.holidayService },
    labelKey: 'holiday-service.action',
    hiddenBy: 'holiday-service',
    order: 40,
    group: 'manage',
  },
];
