/** The calls of the address pages (account-flows.md §7), each path written once. */
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import type { AddressChangeRequest } from '../../../schemas/generated/address-change-request';
import type { ApiClient } from '../../core/apiClient';

const base = (id: string) => `/subscriptions/${encodeURIComponent(id)}/business-partners`;

export function addressApi(api: ApiClient) {
  return {
    partners: (id: string) => api.get<SubscriptionPartner[]>(base(id)),
    change: (id: string, bpNumber: string, body: AddressChangeRequest) =>
      api.post<SubscriptionPartner>(`${base(id)}/${encodeURIComponent(bpNumber)}`, body),
  };
}

/** A partner's name as a heading: the person, else the company, else the number. */
export function partnerName(partner: SubscriptionPartner): string {
  const person = [partner.address.firstName, partner.address.lastName1].filter(Boolean).join(' ');
  return person || partner.address.company1 || partner.bpNumber;
}

/** What the addresses page says after a save (router state). */
export interface SavedChange {
  bpNumber: string;
  validFrom: string | null;
}
