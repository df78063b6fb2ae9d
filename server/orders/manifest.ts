/** Purchase orders: downloads, invoices, pending orders (portal-core.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { purchaseOrderRoutes } from './purchaseOrderRoutes';
import { ordersPersonalData } from './personalData';

export const ordersManifest: FeatureManifest = {
  id: 'orders',
  // Routes several features share (downloads, invoices, pending orders): each handler asks.
  routers: (deps, { invoiceRequests }) => [{ router: purchaseOrderRoutes({ ...deps, invoiceRequests }) }],
  personalData: ordersPersonalData,
};
