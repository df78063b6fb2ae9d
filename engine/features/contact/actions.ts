import { canContactAbout, canRevokeCancellation } from '../../domain/capabilities';
import { ROUTES } from '../../domain/routeRefs';
import type { SubscriptionAction } from '../types';

/** The buttons contact adds to the subscription page (portal-core.md §2 "Subscription detail"). */
export const actions: readonly SubscriptionAction[] = [
  {
    // §4: "Cancellation revocation is offered when the status is AK", with the tenant's activity.
    id: 'revoke-cancellation',
    allowed: canRevokeCancellation,
    target: {
      kind: 'route',
      route: ROUTES.contact,
      query: (s, tenant) => ({
        subscriptionId: s.id,
        activity: tenant.cancellation.revocationContactActivity ?? '',
      }),
    },
    labelKey: 'contact.action.revokeCancellation',
    hiddenBy: 'contact',
    order: 120,
    group: 'help',
  },
  {
    id: 'contact',
    allowed: canContactAbout,
    target: { kind: 'route', route: ROUTES.contact, query: (s) => ({ subscriptionId: s.id }) },
    labelKey: 'contact.action.contact',
    hiddenBy: 'contact',
    order: 130,
    group: 'help',
  },
];
