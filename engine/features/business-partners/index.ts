import { defineFeature } from '../types';

/** /business-partners (portal-core.md §2 route table, menu "addresses"): always on. */
export const businessPartnersFeature = defineFeature({
  id: 'business-partners',
  routes: [{ path: 'business-partners', access: 'login', screen: () => import('./BusinessPartnersScreen') }],
  menu: { to: '/business-partners', labelKey: 'business-partners.menuTitle', order: 50 },
});
