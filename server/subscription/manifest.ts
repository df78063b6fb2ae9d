/** The subscription list and page (portal-core.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { subscriptionRoutes } from './subscriptionRoutes';
import { subscriptionPageRoutes } from './subscriptionPageRoutes';
import { subscriptionPersonalData } from './personalData';

export const subscriptionManifest: FeatureManifest = {
  id: 'subscription',
  // Every subscriber has the list and the page; what a page offers is asked per publication
  // (capability rules of engine/domain/capabilities.ts), so neither is gated as a whole.
  routers: (deps, { invoiceRequests }) => [
    { router: subscriptionRoutes(deps) },
    // Mounted after the link slice, where it has always been; no path of the two overlaps
    // (POST /subscriptions against /subscriptions/:id/…), the anchor keeps the order, not a rule.
    { router: subscriptionPageRoutes({ ...deps, invoiceRequests }), after: 'link-subscription' },
  ],
  personalData: subscriptionPersonalData,
  events: ['order_attribute.changed'],
};
