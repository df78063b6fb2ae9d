/** Renewal and upgrade offers (account-flows.md §2); the service is shared (SharedServices.offers). */
import type { FeatureManifest } from '../featureManifest';
import { offerRoutes } from './offerRoutes';
import { offersPersonalData } from './personalData';
import { failRejectedAcceptance } from '../store/changeRejectionStore';

export const offersManifest: FeatureManifest = {
  id: 'offers',
  // Offers are switched per publication (a capability rule of engine/domain/capabilities.ts): each handler asks.
  routers: (deps, { offers }) => [{ router: offerRoutes({ auth: deps.auth, offers }) }],
  personalData: offersPersonalData,
  events: ['offer.accepted', 'payment.settled', 'subscription.cancellation_revoked'],
  rejections: { 'offer.accepted': failRejectedAcceptance },
};
