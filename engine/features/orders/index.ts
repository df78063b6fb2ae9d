import { ROUTES } from '../../domain/routeRefs';
import { defineFeature } from '../types';

/** The orders overview (portal-core.md §2 "Orders page"); always on, always first in the menu. */
export const ordersFeature = defineFeature({
  id: 'orders',
  routes: [{ ref: ROUTES.orders, access: 'login', screen: () => import('./OrdersScreen') }],
  menu: { route: ROUTES.orders, labelKey: 'orders.menuTitle', order: 10 },
});
