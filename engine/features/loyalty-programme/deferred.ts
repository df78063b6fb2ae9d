import type { LazyScreen } from '../types';

/** What loyalty-programme loads with the registry's deferred table (engine/features/deferred.ts). */
export const screens = {
  LoyaltyIndexScreen: () => import('./LoyaltyIndexScreen'),
  LoyaltyOptInScreen: () => import('./LoyaltyOptInScreen'),
  LoyaltyRewardsScreen: () => import('./LoyaltyRewardsScreen'),
  LoyaltyRewardScreen: () => import('./LoyaltyRewardScreen'),
  LoyaltyFavoritesScreen: () => import('./LoyaltyFavoritesScreen'),
  LoyaltyHistoryScreen: () => import('./LoyaltyHistoryScreen'),
} satisfies Record<string, LazyScreen>;
