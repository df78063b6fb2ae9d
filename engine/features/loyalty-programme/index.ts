import { ROUTES } from '../../domain/routeRefs';
import { showLoyaltyInMenu } from '../../domain/loyaltyMenu';
import type { ApiClient } from '../../core/apiClient';
import type { OptInRequirement } from '../types';
import { defineFeature, deferredScreen } from '../types';

/**
 * The loyalty programme (account-flows.md §2 "Loyalty programme", §4 "Reward claim", "Loyalty
 * opt-out", §8), switched by `loyalty-programme`: /loyalty-programme sends on to the rewards; the
 * rewards, a reward's page, favourites and history need the opt-in, else the opt-in landing. The
 * menu item shows when the tenant's `loyalty.showInNavbar` is on (portal-core.md §2 "Menu items").
 */
const optIn: OptInRequirement = {
  // The server's answer is the truth (a session storage copy could outlive an opt-out in another tab).
  isOptedIn: (api: ApiClient) =>
    api.get<{ loyaltyOption: boolean }>('/loyalty-programme/optin').then((answer) => answer.loyaltyOption),
  landing: ROUTES.loyaltyOptIn,
};

export const loyaltyProgrammeFeature = defineFeature({
  id: 'loyalty-programme',
  flags: ['loyalty-programme'],
  routes: [
    {
      ref: ROUTES.loyaltyProgramme,
      access: 'account',
      screen: deferredScreen('loyalty-programme', 'LoyaltyIndexScreen'),
    },
    {
      ref: ROUTES.loyaltyOptIn,
      access: 'account',
      screen: deferredScreen('loyalty-programme', 'LoyaltyOptInScreen'),
    },
    {
      ref: ROUTES.loyaltyRewards,
      access: 'loyalty',
      optIn,
      screen: deferredScreen('loyalty-programme', 'LoyaltyRewardsScreen'),
    },
    {
      ref: ROUTES.loyaltyReward,
      access: 'loyalty',
      optIn,
      screen: deferredScreen('loyalty-programme', 'LoyaltyRewardScreen'),
    },
    {
      ref: ROUTES.loyaltyFavorites,
      access: 'loyalty',
      optIn,
      screen: deferredScreen('loyalty-programme', 'LoyaltyFavoritesScreen'),
    },
    {
      ref: ROUTES.loyaltyHistory,
      access: 'loyalty',
      optIn,
      screen: deferredScreen('loyalty-programme', 'LoyaltyHistoryScreen'),
    },
  ],
  menu: {
    route: ROUTES.loyaltyProgramme,
    labelKey: 'loyalty-programme.menuTitle',
    order: 110,
    when: showLoyaltyInMenu,
  },
});
