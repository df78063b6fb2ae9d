import { defineFeature } from '../types';

/** /memberships (portal-core.md §2 "Memberships page"), switched by the `membership` flag. */
export const membershipsFeature = defineFeature({
  id: 'memberships',
  flag: 'membership',
  routes: [{ path: 'memberships', access: 'login', screen: () => import('./MembershipsScreen') }],
  menu: { to: '/memberships', labelKey: 'memberships.menuTitle', order: 40 },
});
