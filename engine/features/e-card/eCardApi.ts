/** The e-card call (account-flows.md §7 POST /e-cards), its path written once. */
import type { ECardRequest } from '../../../schemas/generated/e-card-request';
import type { ECardAnswer } from '../../../schemas/generated/e-card-answer';
import type { ApiClient } from '../../core/apiClient';

export function eCardApi(api: ApiClient) {
  return {
    send: (body: ECardRequest) => api.post<ECardAnswer>('/e-cards', body),
  };
}
