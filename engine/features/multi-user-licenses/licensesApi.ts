/** The calls of the licence screens (account-flows.md §7), each path written once. */
import type { AcceptLicenseInfo, License, LicenseManager, LicenseObject, LicensePartner } from '../../../schemas/generated/licenses';
import type { LicenseAddRequest } from '../../../schemas/generated/license-add-request';
import type { LicenseAcceptRequest } from '../../../schemas/generated/license-accept-request';
import type { LicensePersonRequest } from '../../../schemas/generated/license-person-request';
import type { ApiClient } from '../../core/apiClient';

const e = encodeURIComponent;
const subscription = (id: string) => `/subscriptions/${e(id)}`;
const object = (id: string, orderNumber: string) => `${subscription(id)}/objects/${e(orderNumber)}/licenses`;
const license = (id: string, orderNumber: string, licenseId: string) => `${object(id, orderNumber)}/${e(licenseId)}`;
const accept = (id: string, licenseId: string) => `${subscription(id)}/licenses/${e(licenseId)}/accept`;

export function licensesApi(api: ApiClient) {
  return {
    objects: (id: string) => api.get<LicenseObject[]>(`${subscription(id)}/licenses`),
    managers: (id: string) => api.get<LicenseManager[]>(`${subscription(id)}/license-managers`),
    partner: (id: string, orderNumber: string, licenseId: string) => api.get<LicensePartner>(`${license(id, orderNumber, licenseId)}/business-partner`),
    add: (id: string, orderNumber: string, body: LicenseAddRequest) => api.post<License>(object(id, orderNumber), body),
    setActive: (id: string, orderNumber: string, licenseId: string, isActive: boolean) => api.post<License>(license(id, orderNumber, licenseId), { isActive }),
    sendInvitation: (id: string, orderNumber: string, licenseId: string) => api.post<void>(`${license(id, orderNumber, licenseId)}/send-invitation`),
    remove: (id: string, orderNumber: string, licenseId: string) => api.delete(license(id, orderNumber, licenseId)),
    replaceManager: (id: string, body: LicensePersonRequest) => api.post<LicenseManager>(`${subscription(id)}/license-managers`, body),
    removeManager: (id: string, bpNumber: string) => api.delete(`${subscription(id)}/license-managers/${e(bpNumber)}`),
    /** The accept URL itself (GET, POST), anonymous: the invitation's token is the proof. */
    acceptInfo: (id: string, licenseId: string, token: string) => api.get<AcceptLicenseInfo>(`${accept(id, licenseId)}?token=${e(token)}`),
    accept: (id: string, licenseId: string, body: LicenseAcceptRequest) => api.post<{ status: 'accepted'; email: string }>(accept(id, licenseId), body),
  };
}
