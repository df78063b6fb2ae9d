/** The calls of the complaint page (account-flows.md §7), each path written once. */
import type { CompensationAnswer, ComplaintState } from '../../../schemas/generated/account-changes';
import type { CompensationRequest } from '../../../schemas/generated/compensation-request';
import type { ApiClient } from '../../core/apiClient';
import type { CompensationOption } from '../../domain/complaint';

const base = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;

export function complaintApi(api: ApiClient) {
  return {
    state: (id: string) => api.get<ComplaintState>(`${base(id)}/complaint`),
    options: (id: string, issue: string) =>
      api.post<CompensationOption[]>(`${base(id)}/delivered-issues/compensation-options`, { issue }),
    request: (id: string, body: CompensationRequest) =>
      api.post<CompensationAnswer>(`${base(id)}/delivered-issues/request-compensation`, body),
  };
}
