/** The calls of the loyalty programme (account-flows.md §7), each path written once. */
import type {
  LoyaltyClaimAnswer,
  LoyaltyFavoriteAnswer,
  LoyaltyHistoryEntry,
  LoyaltyOptInAnswer,
  LoyaltyTiersAnswer,
} from '../../../schemas/generated/loyalty';
import type { ApiClient } from '../../core/apiClient';

const base = '/loyalty-programme';

export function loyaltyApi(api: ApiClient) {
  return {
    tiers: () => api.get<LoyaltyTiersAnswer>(`${base}/tiers`),
    optIn: () => api.get<LoyaltyOptInAnswer>(`${base}/optin`),
    setOptIn: (loyaltyOption: boolean) => api.post<LoyaltyOptInAnswer>(`${base}/optin`, { loyaltyOption }),
    favorite: (rewardId: string, favorite: boolean) =>
      api.post<LoyaltyFavoriteAnswer>(`${base}/favorite-reward`, { rewardId, favorite }),
    claim: (tierCode: string, rewardId: string) =>
      api.post<LoyaltyClaimAnswer>(`${base}/claim-reward`, { tierCode, rewardId }),
    history: () => api.get<LoyaltyHistoryEntry[]>(`${base}/history-entries`),
  };
}
