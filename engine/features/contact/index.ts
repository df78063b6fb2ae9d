import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen, deferredActions } from '../types';

/**
 * /contact (portal-core.md §2 "Contact", §4, §5, §8), open to anonymous visitors, switched by
 * `contact-form`. It adds two buttons to the subscription page (§2 "contact (for cancellation
 * revocation with query subscriptionId and activity, and for general contact)"); the tenant hides
 * both with `buttons.hiddenActions: ["contact"]`.
 */
export const contactFeature = defineFeature({
  id: 'contact',
  flags: ['contact-form'],
  routes: [{ ref: ROUTES.contact, access: 'anonymous', screen: deferredScreen('contact', 'ContactScreen') }],
  menu: { route: ROUTES.contact, labelKey: 'contact.menuTitle', order: 90 },
  actions: deferredActions('contact'),
});
