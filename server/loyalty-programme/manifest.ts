/** The loyalty programme (account-flows.md §2, §7). */
import type { FeatureManifest } from '../featureManifest';
import { createLoyaltyService } from './loyaltyService';
import { loyaltySlice } from './loyaltyRoutes';
import { loyaltyPersonalData } from './personalData';
import {
  dropRejectedLoyaltyOptIn,
  rejectRewardClaim,
  revertRejectedFavorite,
} from '../store/changeRejectionStore';

export const loyaltyProgrammeManifest: FeatureManifest = {
  id: 'loyalty-programme',
  routers: (deps) => [{ slice: loyaltySlice({ auth: deps.auth, loyalty: createLoyaltyService(deps) }) }],
  personalData: loyaltyPersonalData,
  events: ['loyalty.opted_in', 'loyalty.opted_out', 'loyalty.favorite_changed', 'loyalty.reward_claimed'],
  rejections: {
    'loyalty.opted_in': dropRejectedLoyaltyOptIn,
    'loyalty.favorite_changed': revertRejectedFavorite,
    'loyalty.reward_claimed': rejectRewardClaim,
  },
};
