/** The calls of the holiday service page (account-flows.md §7), each path written once. */
import type { HolidayIssue, HolidayServiceState } from '../../../schemas/generated/account-changes';
import type { HolidayCancelRequest } from '../../../schemas/generated/holiday-cancel-request';
import type { HolidayServiceRequest } from '../../../schemas/generated/holiday-service-request';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { ApiClient } from '../../core/apiClient';

const base = (id: string) => `/subscriptions/${encodeURIComponent(id)}/holiday-service`;

export function holidayApi(api: ApiClient) {
  return {
    state: (id: string) => api.get<HolidayServiceState>(base(id)),
    issues: (id: string, dateFrom: string, dateTo: string) =>
      api.get<HolidayIssue[]>(`${base(id)}/issues?${new URLSearchParams({ dateFrom, dateTo }).toString()}`),
    /** Answers the updated subscription (§7 "replaces the stored subscription"). */
    book: (id: string, body: HolidayServiceRequest) => api.post<Subscription>(base(id), body),
    cancel: (id: string, body: HolidayCancelRequest) => api.post<Subscription>(`${base(id)}/cancel`, body),
  };
}
