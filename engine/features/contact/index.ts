import { ROUTES } from '../../domain/routeRefs';
import { canContactAbout, canRevokeCancellation } from '../../domain/capabilities';
import { defineFeature } from '../types';

/**
 * /contact (portal-core.md §2 "Contact", §4, §5, §8), open to anonymous visitors, switched by
 * `contact-form`. It adds two buttons to the subscription page (§2 "contact (for cancellation
 * revocation with query subscriptionId and activity, and for general contact)"); the tenant hides
 * both with `buttons.hiddenActions: ["contact"]`.
 */
export const contactFeature = defineFeature({
  id: 'contact',
  flags: ['contact-form'],
  routes: [{ ref: ROUTES.contact, access: 'anonymous', screen: () => import('./ContactScreen') }],
  menu: { route: ROUTES.contact, labelKey: 'contact.menuTitle', order: 90 },
  actions: [
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
  ],
});
