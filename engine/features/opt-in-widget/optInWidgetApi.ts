/** The opt-in widget's calls (account-flows.md §7 POST /opt-in; the provider's pool; the link's confirmation), each path written once. */
import type { OptInWidgetRequest } from '../../../schemas/generated/opt-in-widget-request';
import type { OptInWidgetConfirmation } from '../../../schemas/generated/opt-in-widget-confirmation';
import type { ApiClient } from '../../core/apiClient';

export function optInWidgetApi(api: ApiClient) {
  return {
    /** Whether the provider still has voucher codes: the page says so before anyone types (§8). */
    provider: (code: string) =>
      api.get<{ provider: string; codesLeft: boolean }>(`/opt-in/providers/${encodeURIComponent(code)}`),
    signUp: (body: OptInWidgetRequest) => api.post<{ status: 'confirmation_sent' }>('/opt-in', body),
    confirm: (token: string) => api.post<OptInWidgetConfirmation>('/opt-in/confirm', { token }),
  };
}
