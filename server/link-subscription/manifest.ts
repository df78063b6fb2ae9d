/** Linking a subscription to the account (portal-core.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { linkSlice } from './linkRoutes';
import { unlinkRejectedPartner } from '../store/changeRejectionStore';

export const linkSubscriptionManifest: FeatureManifest = {
  id: 'link-subscription',
  routers: (deps) => [{ slice: linkSlice(deps) }],
  events: ['subscription.linked'],
  rejections: { 'subscription.linked': unlinkRejectedPartner },
};
