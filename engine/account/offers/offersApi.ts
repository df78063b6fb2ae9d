/**
 * The calls of the cancellation, renewal, bulk renewal and upgrade flows (account-flows.md §7 and
 * the anonymous sign-ins of §2), one module for the three flows so each path is written once
 * (manage-frontend keeps one API module per flow; these flows share theirs).
 */
import type { Subscription } from '../../../schemas/generated/subscription';
import type {
  AcceptAnswer,
  CancelAnswer,
  CancellationInfos,
  CancellationReason,
  OpenPayment,
  PendingPayment,
  Recommendation,
} from '../../../schemas/generated/offers';
import type { AcceptRecommendationQuery } from '../../../schemas/generated/accept-recommendation-query';
import type { AcceptedAnswer } from '../../../schemas/generated/accepted-answer';
import type { BulkRenewalLoginRequest } from '../../../schemas/generated/bulk-renewal-login-request';
import type { BulkRenewalRequest } from '../../../schemas/generated/bulk-renewal-request';
import type { CancelRequest } from '../../../schemas/generated/cancel-request';
import type { CancellationLoginRequest } from '../../../schemas/generated/cancellation-login-request';
import type { OrderNumberLoginRequest } from '../../../schemas/generated/order-number-login-request';
import type { RecommendationsQuery } from '../../../schemas/generated/recommendations-query';
import type { ApiClient } from '../../core/apiClient';
import type { PortalTenant } from '../../domain/portalConfig';
import { offerCategory } from '../../domain/offers';

/** Where a pending payment is polled (AcceptAnswer.pendingPayment). */
export interface PendingPaymentRef {
  id: string;
  subscriptionId: string;
}

const subscriptionPath = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;

/** `?a=1&b=2` of the entries with a value; empty when there are none. */
function queryString(params: object): string {
  const search = new URLSearchParams(
    Object.entries(params).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  ).toString();
  return search ? `?${search}` : '';
}

export function offersApi(api: ApiClient) {
  return {
    subscription: (id: string) => api.get<Subscription>(subscriptionPath(id)),
    cancellationReasons: (id: string) =>
      api.get<CancellationReason[]>(`${subscriptionPath(id)}/cancellation-reasons`),
    cancellationInfos: (id: string, cancellationReason: string) =>
      api.get<CancellationInfos>(
        `${subscriptionPath(id)}/cancellation-infos${queryString({ cancellationReason })}`,
      ),
    cancel: (id: string, body: CancelRequest) =>
      api.post<CancelAnswer>(`${subscriptionPath(id)}/cancel`, body),
    recommendations: (id: string, query: RecommendationsQuery) =>
      api.get<Recommendation[]>(`${subscriptionPath(id)}/recommendations${queryString(query)}`),
    accept: (id: string, recommendationId: string, query: AcceptRecommendationQuery) =>
      api.post<AcceptAnswer>(
        `${subscriptionPath(id)}/recommendations/${encodeURIComponent(recommendationId)}/accept${queryString(query)}`,
      ),
    acceptAll: (body: BulkRenewalRequest) =>
      api.post<AcceptAnswer>('/subscriptions/acceptAllRecommendations', body),
    /** The caller's offer payments for the subscription that still wait for their page. */
    openPayments: (id: string) => api.get<OpenPayment[]>(`${subscriptionPath(id)}/pending-payments`),
    pendingPayment: (ref: PendingPaymentRef) =>
      api.get<PendingPayment>(
        `${subscriptionPath(ref.subscriptionId)}/pending-payments/${encodeURIComponent(ref.id)}`,
      ),
    /** The popup closed without a message: the server cancels a payment still pending and answers its state. */
    abandonPayment: (ref: PendingPaymentRef) =>
      api.post<PendingPayment>(
        `${subscriptionPath(ref.subscriptionId)}/pending-payments/${encodeURIComponent(ref.id)}/abandon`,
      ),
    // The anonymous entries: each mails a sign-in link and never opens a session itself.
    orderNumberLogin: (body: OrderNumberLoginRequest) => api.post<unknown>('/login/order-number', body),
    cancellationLogin: (body: CancellationLoginRequest) => api.post<unknown>('/login/cancellation', body),
    bulkRenewalLogin: (body: BulkRenewalLoginRequest) =>
      api.post<AcceptedAnswer>('/login/bulk-renewal', body),
  };
}

export type OffersApi = ReturnType<typeof offersApi>;

/**
 * Category and campaign of a renewal or upgrade request (portal-core.md §7): the page's query
 * first, then the tenant's renewal or upgrade config, then the default category (§9).
 */
export function offerParams(
  source: 'renewal' | 'upgrade',
  search: URLSearchParams,
  tenant: Pick<PortalTenant, 'renewal' | 'upgrade'>,
) {
  const config = source === 'renewal' ? tenant.renewal : tenant.upgrade;
  return {
    category: offerCategory(source, search.get('category') ?? undefined, config.recommendationCategory),
    campaign: search.get('campaign') || config.campaign || undefined,
  };
}
