/** The calls of the opt-ins page (account-flows.md §7), each path written once. */
import type { OptIn } from '../../../schemas/generated/account-changes';
import type { OptInsRequest } from '../../../schemas/generated/opt-ins-request';
import type { ApiClient } from '../../core/apiClient';

const path = (id: string, bpNumber: string) =>
  `/subscriptions/${encodeURIComponent(id)}/business-partners/${encodeURIComponent(bpNumber)}/opt-ins`;

export function optInsApi(api: ApiClient) {
  return {
    list: (id: string, bpNumber: string) => api.get<OptIn[]>(path(id, bpNumber)),
    /** Only the changed items (§3); answers the whole list again. */
    save: (id: string, bpNumber: string, body: OptInsRequest) => api.post<OptIn[]>(path(id, bpNumber), body),
    /** What the mailed link still confirms, named (spent, expired and made-up links: nothing). */
    linkState: (token: string) =>
      api.get<{ open: boolean; optIns: string[] }>(
        `/opt-ins/confirm/state?token=${encodeURIComponent(token)}`,
      ),
    confirm: (token: string) =>
      api.post<{ status: 'confirmed'; types: string[] }>('/opt-ins/confirm', { token }),
  };
}
