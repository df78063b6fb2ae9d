/**
 * The e-card calls, their paths written once: account-flows.md §7 POST /e-cards, and the project's
 * own GET /e-cards and DELETE /e-cards/{id} for timed cards that have not gone out
 * (docs/subscribers.md "E-cards").
 */
import type { ECardRequest } from '../../../schemas/generated/e-card-request';
import type { ECardAnswer } from '../../../schemas/generated/e-card-answer';
import type { ECardList } from '../../../schemas/generated/e-card-list';
import type { ApiClient } from '../../core/apiClient';

export function eCardApi(api: ApiClient) {
  return {
    send: (body: ECardRequest) => api.post<ECardAnswer>('/e-cards', body),
    scheduled: () => api.get<ECardList>('/e-cards'),
    cancel: (id: string) => api.delete(`/e-cards/${encodeURIComponent(id)}`),
  };
}
