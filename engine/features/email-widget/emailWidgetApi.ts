/** The e-mail widget's calls (account-flows.md §7 POST /link-email; the link's confirmation), each path written once. */
import type { LinkEmailRequest } from '../../../schemas/generated/link-email-request';
import type { EmailWidgetResult } from '../../../schemas/generated/email-widget-result';
import type { ApiClient } from '../../core/apiClient';

export function emailWidgetApi(api: ApiClient) {
  return {
    /** Always the same neutral answer: a link goes to the address on record when everything matches. */
    request: (body: LinkEmailRequest) => api.post<{ status: 'check_inbox' }>('/link-email', body),
    confirm: (token: string) => api.post<EmailWidgetResult>('/link-email/confirm', { token }),
  };
}
