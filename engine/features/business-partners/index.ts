import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/** /business-partners (portal-core.md §2 route table, menu "addresses"): always on. */
export const businessPartnersFeature = defineFeature({
  id: 'business-partners',
  routes: [
    {
      ref: ROUTES.businessPartners,
      access: 'account',
      screen: deferredScreen('business-partners', 'BusinessPartnersScreen'),
    },
  ],
  menu: { route: ROUTES.businessPartners, labelKey: 'business-partners.menuTitle', order: 50 },
});
