/** The calls of the licence screens (account-flows.md §7), each path written once. */
import type {
  AcceptLicenseInfo,
  License,
  LicenseManager,
  LicenseManagerAppointment,
  LicenseObject,
  LicensePartner,
  ManagerAppointmentInfo,
} from '../../../schemas/generated/licenses';
import type { LicenseAddRequest } from '../../../schemas/generated/license-add-request';
import type { LicenseAcceptRequest } from '../../../schemas/generated/license-accept-request';
import type { LicensePersonRequest } from '../../../schemas/generated/license-person-request';
import type { ApiClient } from '../../core/apiClient';

const e = encodeURIComponent;
const subscription = (id: string) => `/subscriptions/${e(id)}`;
const object = (id: string, orderNumber: string) => `${subscription(id)}/objects/${e(orderNumber)}/licenses`;
const license = (id: string, orderNumber: string, licenseId: string) =>
  `${object(id, orderNumber)}/${e(licenseId)}`;
const accept = (id: string, licenseId: string) => `${subscription(id)}/licenses/${e(licenseId)}/accept`;
const appointment = (id: string, appointmentId: string) =>
  `${subscription(id)}/license-manager-appointments/${e(appointmentId)}`;

export function licensesApi(api: ApiClient) {
  return {
    objects: (id: string) => api.get<LicenseObject[]>(`${subscription(id)}/licenses`),
    managers: (id: string) => api.get<LicenseManager[]>(`${subscription(id)}/license-managers`),
    partner: (id: string, orderNumber: string, licenseId: string) =>
      api.get<LicensePartner>(`${license(id, orderNumber, licenseId)}/business-partner`),
    add: (id: string, orderNumber: string, body: LicenseAddRequest) =>
      api.post<License>(object(id, orderNumber), body),
    setActive: (id: string, orderNumber: string, licenseId: string, isActive: boolean) =>
      api.post<License>(license(id, orderNumber, licenseId), { isActive }),
    sendInvitation: (id: string, orderNumber: string, licenseId: string) =>
      api.post<void>(`${license(id, orderNumber, licenseId)}/send-invitation`),
    remove: (id: string, orderNumber: string, licenseId: string) =>
      api.delete(license(id, orderNumber, licenseId)),
    /** Appoints a new manager: pending until they confirm the mailed link. */
    replaceManager: (id: string, body: LicensePersonRequest) =>
      api.post<LicenseManagerAppointment>(`${subscription(id)}/license-managers`, body),
    appointments: (id: string) =>
      api.get<LicenseManagerAppointment[]>(`${subscription(id)}/license-manager-appointments`),
    withdrawAppointment: (id: string, appointmentId: string) => api.delete(appointment(id, appointmentId)),
    removeManager: (id: string, bpNumber: string) =>
      api.delete(`${subscription(id)}/license-managers/${e(bpNumber)}`),
    /** The accept URL itself (GET, POST), anonymous: the invitation's token is the proof. */
    acceptInfo: (id: string, licenseId: string, token: string) =>
      api.get<AcceptLicenseInfo>(`${accept(id, licenseId)}?token=${e(token)}`),
    accept: (id: string, licenseId: string, body: LicenseAcceptRequest) =>
      api.post<{ status: 'accepted'; email: string }>(accept(id, licenseId), body),
    /** The appointment e-mail's confirm link (GET shows, POST confirms), anonymous: its token is the proof. */
    appointmentInfo: (id: string, appointmentId: string, token: string) =>
      api.get<ManagerAppointmentInfo>(`${appointment(id, appointmentId)}?token=${e(token)}`),
    confirmManager: (id: string, appointmentId: string, token: string) =>
      api.post<{ status: 'confirmed'; email: string }>(appointment(id, appointmentId), { token }),
  };
}
