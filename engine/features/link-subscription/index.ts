import { defineFeature } from '../types';

/** /link-subscription (portal-core.md §2 "Link subscription", §5), switched by manual-registration. */
export const linkSubscriptionFeature = defineFeature({
  id: 'link-subscription',
  flag: 'manual-registration',
  routes: [{ path: 'link-subscription', access: 'login', screen: () => import('./LinkSubscriptionScreen') }],
  menu: { to: '/link-subscription', labelKey: 'link-subscription.menuTitle', order: 30 },
});
