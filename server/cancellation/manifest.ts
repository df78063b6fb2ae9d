/** Cancellation (account-flows.md §2); its service is shared (SharedServices.cancellations). */
import type { FeatureManifest } from '../featureManifest';
import { cancellationSlice } from './cancellationRoutes';
import { cancellationPersonalData } from './personalData';
import { dropRejectedCancellation } from '../store/changeRejectionStore';

export const cancellationManifest: FeatureManifest = {
  id: 'cancellation',
  routers: (deps, { cancellations }) => [{ slice: cancellationSlice({ ...deps, cancellations }) }],
  personalData: cancellationPersonalData,
  events: ['subscription.cancelled', 'payment.settled'],
  rejections: { 'subscription.cancelled': dropRejectedCancellation },
};
