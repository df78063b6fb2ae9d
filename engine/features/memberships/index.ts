import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen } from '../types';

/** /memberships (portal-core.md §2 "Memberships page"), switched by the `membership` flag. */
export const membershipsFeature = defineFeature({
  id: 'memberships',
  flags: ['membership'],
  routes: [
    { ref: ROUTES.memberships, access: 'login', screen: deferredScreen('memberships', 'MembershipsScreen') },
  ],
  menu: { route: ROUTES.memberships, labelKey: 'memberships.menuTitle', order: 40 },
});
