/** The calls of the payment details page (account-flows.md §7), each path written once. */
import type { AcceptAnswer } from '../../../schemas/generated/offers';
import type { PaymentDetails, PaymentPopupAnswer } from '../../../schemas/generated/account-changes';
import type { DirectDebitRequest } from '../../../schemas/generated/direct-debit-request';
import type { SepaRequest } from '../../../schemas/generated/sepa-request';
import type { ApiClient } from '../../core/apiClient';

const base = (id: string) => `/subscriptions/${encodeURIComponent(id)}/payment-details`;

/** The popup answer in the shape the offers kit's payment flow takes (a pending payment to watch). */
const toAcceptAnswer = (answer: PaymentPopupAnswer): AcceptAnswer => ({
  url: answer.url,
  status: 'pending',
  pendingPayment: answer.pendingPayment,
});

export function paymentDetailsApi(api: ApiClient) {
  return {
    details: (id: string) => api.get<PaymentDetails>(base(id)),
    sepa: (id: string, body: SepaRequest) => api.post<PaymentDetails>(`${base(id)}/sepa`, body),
    directDebit: (id: string, body: DirectDebitRequest) =>
      api.post<PaymentDetails>(`${base(id)}/direct-debit`, body),
    /** Card and PayPal: the payment page for the popup and the pending payment to poll (§4). */
    popup: (id: string, kind: 'credit_card' | 'paypal') =>
      api
        .post<PaymentPopupAnswer>(`${base(id)}/${kind === 'credit_card' ? 'credit-card' : 'paypal'}`)
        .then(toAcceptAnswer),
  };
}
